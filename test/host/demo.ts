// `npm run demo`: the emulator with its demo data and a VS Code (code-server, in your browser) with the
// freshly packaged extension installed and pointed at the emulator. Ctrl+C stops everything.
//
// Ports: DATAGROK_DEMO_PORT (VS Code, default 8080) and DATAGROK_DEMO_EMULATOR_PORT (default 8090),
// each replaced by a free port when taken.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installVsix, shortTempDir, startCodeServer } from './codeServer';
import { startEmulator } from './emulator';
import { repoRoot } from './paths';
import { freePort, isStopping, portIsFree, removeAfterStop, stopAll, stopAllOnSignals } from './processes';
import { ensureHost } from './provision';
import { testSettings } from './run';
import { packageVsix } from './vsix';
import { workbenchUrl } from './workbench';

const DEMO_KEY = 'demo-key';

async function fixedOrFree(envName: string, preferred: number): Promise<number> {
  const wanted = Number(process.env[envName] ?? preferred);
  if (Number.isInteger(wanted) && wanted > 0 && (await portIsFree(wanted))) return wanted;
  const port = await freePort();
  console.log(`[demo] port ${wanted} is taken; using ${port}`);
  return port;
}

async function main(): Promise<void> {
  const host = await ensureHost({ needBrowser: false });
  const stateDir = shortTempDir('dgdemo-');
  removeAfterStop(stateDir);

  const vsix = packageVsix(path.join(stateDir, 'datagrok-vscode.vsix'));
  installVsix(host, stateDir, vsix);

  const emulator = await startEmulator({ port: await fixedOrFree('DATAGROK_DEMO_EMULATOR_PORT', 8090), key: DEMO_KEY });
  const workspace = path.join(stateDir, 'workspace');
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });

  const server = await startCodeServer(host, {
    stateDir,
    port: await fixedOrFree('DATAGROK_DEMO_PORT', 8080),
    // No smoke-test driver: notifications show as they do for a user.
    smokeTestDriver: false,
    settings: testSettings(emulator.baseUrl),
  });
  const url = workbenchUrl(server.origin, workspace);
  for (const [what, child] of [
    ['VS Code (code-server)', server.process],
    ['the emulator', emulator.process],
  ] as const) {
    child.once('exit', (code, signal) => {
      if (isStopping()) return;
      console.error(`[demo] ${what} stopped (${signal ?? code}); stopping the demo`);
      void stopAll().finally(() => process.exit(1));
    });
  }

  console.log(`
Datagrok demo: VS Code ${host.vscodeVersion} (code-server ${host.codeServerVersion}) with the extension from a fresh .vsix

  Open in your browser:  ${url}
  Emulator (server URL): ${emulator.baseUrl}
  API key:               ${DEMO_KEY}

  In VS Code: click the Datagrok icon in the activity bar, then "Sign In": keep the server URL it offers
  and paste the API key above. The workspace has a CSV and parameter files to try: see its README.md.

  Ctrl+C stops everything.
`);
  await new Promise<never>(() => undefined);
}

stopAllOnSignals();
main().catch(async (error: unknown) => {
  console.error(`[demo] ${error instanceof Error ? error.message : String(error)}`);
  await stopAll();
  process.exit(1);
});
