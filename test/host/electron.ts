// The same integration suite under @vscode/test-electron, for machines that can download VS Code or
// have one installed (DATAGROK_VSCODE_EXECUTABLE / VSCODE_EXECUTABLE_PATH). Starts the emulator and
// passes the same environment as the code-server launcher (test/host/run.ts).
//
// Offline (as in this project's sandbox) the download fails: this exits 1 with a message that says so.
// On Linux without a display, run it under `xvfb-run -a npm run test:electron`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests, TestRunFailedError } from '@vscode/test-electron';
import { shortTempDir } from './codeServer';
import { startEmulator } from './emulator';
import { repoRoot, resultsDir } from './paths';
import { removeAfterStop, stopAll, stopAllOnSignals } from './processes';
import { grepFromEnvironment } from './run';

async function main(): Promise<number> {
  const stateDir = shortTempDir('dgve-');
  removeAfterStop(stateDir);
  const workspace = path.join(stateDir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const resultsFile = path.join(resultsDir, 'integration-electron.json');
  fs.rmSync(resultsFile, { force: true });

  const emulator = await startEmulator();
  console.log(`[electron] emulator ${emulator.baseUrl}`);
  const vscodeExecutablePath = process.env['DATAGROK_VSCODE_EXECUTABLE'] || process.env['VSCODE_EXECUTABLE_PATH'] || undefined;
  const env: Record<string, string> = {
    DATAGROK_TEST_URL: emulator.baseUrl,
    DATAGROK_TEST_KEY: emulator.key,
    DATAGROK_TEST_CONTROL: emulator.origin,
    DATAGROK_TEST_WORKSPACE: workspace,
    DATAGROK_TEST_RESULTS: resultsFile,
  };
  const grep = grepFromEnvironment('[electron]');
  if (grep) env['DATAGROK_TEST_GREP'] = grep;

  const userDataDir = path.join(stateDir, 'user-data');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ 'datagrok.serverUrl': emulator.baseUrl, 'workbench.startupEditor': 'none', 'update.mode': 'none' }, null, 2),
  );
  try {
    const code = await runTests({
      vscodeExecutablePath,
      version: process.env['DATAGROK_VSCODE_VERSION'] || undefined,
      timeout: 30_000,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
      extensionTestsEnv: env,
      // runTests adds --disable-workspace-trust, --skip-welcome, --skip-release-notes, --disable-updates.
      launchArgs: [workspace, '--disable-extensions', '--use-inmemory-secretstorage', '--user-data-dir', userDataDir, '--extensions-dir', path.join(stateDir, 'extensions')],
    });
    return code;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof TestRunFailedError) {
      // VS Code ran and the suite failed (or the runner did not load): its output is above.
      console.error(`[electron] ${message}`);
      return error.code !== undefined && error.code > 0 ? error.code : 1;
    }
    console.error(
      `[electron] could not run VS Code: ${message}\n` +
        '[electron] @vscode/test-electron downloads VS Code from the internet unless DATAGROK_VSCODE_EXECUTABLE\n' +
        '[electron] (or VSCODE_EXECUTABLE_PATH) points at an installed `code`. Offline, use `npm run test:integration`,\n' +
        "[electron] which runs the same suite in code-server's real VS Code.",
    );
    return 1;
  }
}

stopAllOnSignals();
let exitCode = 1;
main()
  .then((code) => {
    exitCode = code;
    console.log(`[electron] ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`);
  })
  .catch((error: unknown) => console.error(`[electron] ${error instanceof Error ? error.message : String(error)}`))
  .finally(async () => {
    await stopAll();
    process.exit(exitCode);
  });
