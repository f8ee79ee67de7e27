// One fresh code-server (VS Code server + web workbench) per run: 127.0.0.1, no auth, no gallery,
// isolated user data, extensions and a short private TMPDIR, in its own process group.
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, logTo, spawnGroup, stopGroup, waitForHttp, waitForLine } from './processes';
import type { Host } from './provision';

export interface CodeServerOptions {
  /** A folder holding user-data/, extensions/, tmp/ and the log; made fresh by the caller. */
  stateDir: string;
  /**
   * The port to bind on 127.0.0.1 (usually {@link freePort}'s). If another process takes it between
   * that check and code-server's listen (EADDRINUSE), code-server is started once more on a new free
   * port: the returned {@link CodeServer.port} / origin are the ones it listens on.
   */
  port: number;
  /** Settings written to the user settings.json before start. */
  settings?: Record<string, unknown>;
  /**
   * Needed for the test payload (extensionDevelopmentPath/extensionTestsPath): without it the built
   * workbench silently ignores the payload. It also hides notification toasts, so UI checks and the
   * demo leave it off.
   */
  smokeTestDriver: boolean;
  /** Workspace trust on (the folder starts untrusted) instead of code-server's --disable-workspace-trust. */
  workspaceTrust?: boolean;
  /** .vsix files to install into the fresh extensions dir before start. */
  installVsix?: string[];
  /** Where the server's output goes (default: code-server.log in stateDir). */
  logFile?: string;
  /**
   * Variables for the extension host. Releases served by VS Code's own server ignore the payload's
   * `extensionEnvironment` (HostRelease.serve): there they go into the server's environment, which the
   * extension host inherits. Elsewhere they are left to the payload.
   */
  environment?: Record<string, string>;
}

export interface CodeServer {
  origin: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Unix socket paths are limited to ~107 bytes: the server's TMPDIR must be short. */
export function shortTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(fs.existsSync('/tmp') ? '/tmp' : os.tmpdir(), prefix));
}

function serverEnv(tmpDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmpDir, EXTENSIONS_GALLERY: '{}' };
  // The launcher may run inside an npm script or a VS Code terminal: keep those out of the server.
  for (const key of Object.keys(env)) {
    if (/^(npm_|VSCODE_|ELECTRON_)/.test(key) || key === 'PASSWORD' || key === 'HASHED_PASSWORD') delete env[key];
  }
  // The launcher's environment is already a shell's: VSCODE_CLI=1 tells the server so, as VS Code's own CLI
  // does, instead of starting a login shell to read it for every extension host (10 s at most: on a busy
  // machine that timed out and the extension host did not start).
  return Object.assign(env, { VSCODE_CLI: '1' }, extra);
}

/** VS Code's server inside the code-server package (lib/vscode/out/server-main.js). */
function vscodeServerEntry(host: Host): string {
  return path.join(path.dirname(host.codeServerEntry), '..', '..', 'lib', 'vscode', 'out', 'server-main.js');
}

/**
 * The command line for one port, and the line the server prints once it listens. code-server's entry
 * takes VS Code options through `--vscode-option`; VS Code's own server takes them directly and has no
 * code-server flags (update check, getting-started override, auth).
 */
function serverCommand(host: Host, options: CodeServerOptions, dirs: string[]): { args: (port: number) => string[]; listening: RegExp } {
  if (host.release.serve === 'vscode-server') {
    const args = [vscodeServerEntry(host), '--without-connection-token', '--accept-server-license-terms', '--disable-telemetry', ...dirs];
    if (!options.workspaceTrust) args.push('--disable-workspace-trust');
    if (options.smokeTestDriver) args.push('--enable-smoke-test-driver');
    return { args: (port) => [...args, '--host', '127.0.0.1', '--port', String(port)], listening: /Extension host agent listening on \d+|EADDRINUSE/ };
  }
  const args = [host.codeServerEntry, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', ...dirs];
  if (!options.workspaceTrust) args.push('--disable-workspace-trust');
  if (options.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  return { args: (port) => [...args, '--bind-addr', `127.0.0.1:${port}`], listening: /HTTP server listening on http:\/\/\S+|EADDRINUSE/ };
}

function baseArgs(userDataDir: string, extensionsDir: string): string[] {
  return ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
}

export function installVsix(host: Host, stateDir: string, vsix: string): void {
  const userDataDir = path.join(stateDir, 'user-data');
  const extensionsDir = path.join(stateDir, 'extensions');
  const tmpDir = path.join(stateDir, 'tmp');
  for (const dir of [userDataDir, extensionsDir, tmpDir]) fs.mkdirSync(dir, { recursive: true });
  const result = spawnSync(host.node, [host.codeServerEntry, ...baseArgs(userDataDir, extensionsDir), '--install-extension', vsix], {
    env: serverEnv(tmpDir),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0 || /failed/i.test(result.stdout + result.stderr)) {
    throw new Error(`code-server --install-extension ${vsix} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  }
}

export async function startCodeServer(host: Host, options: CodeServerOptions): Promise<CodeServer> {
  const userDataDir = path.join(options.stateDir, 'user-data');
  const extensionsDir = path.join(options.stateDir, 'extensions');
  const tmpDir = path.join(options.stateDir, 'tmp');
  for (const dir of [userDataDir, extensionsDir, tmpDir]) fs.mkdirSync(dir, { recursive: true });
  for (const vsix of options.installVsix ?? []) installVsix(host, options.stateDir, vsix);
  if (options.settings) {
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), `${JSON.stringify(options.settings, null, 2)}\n`);
  }
  const command = serverCommand(host, options, baseArgs(userDataDir, extensionsDir));
  const environment = host.release.serve === 'vscode-server' ? options.environment : undefined;
  const logFile = options.logFile ?? path.join(options.stateDir, 'code-server.log');
  const launch = async (port: number): Promise<CodeServer> => {
    const child = spawnGroup(host.node, command.args(port), { env: serverEnv(tmpDir, environment), cwd: options.stateDir });
    logTo(child, logFile);
    const origin = `http://127.0.0.1:${port}`;
    try {
      // Its own "listening" line first: a port taken by another server could answer /healthz itself.
      const match = await waitForLine(child, command.listening, 60_000).catch((error: Error) => {
        // The exit may be reported before the last output line is matched; the error carries the tail.
        if (/EADDRINUSE/.test(error.message)) return ['EADDRINUSE'] as unknown as RegExpMatchArray;
        throw error;
      });
      if (match[0] === 'EADDRINUSE') throw new PortTakenError(port);
      await waitForHttp(host.release.serve === 'vscode-server' ? `${origin}/version` : `${origin}/healthz`, 60_000, child);
    } catch (error) {
      await stopGroup(child);
      if (error instanceof PortTakenError) throw error;
      throw new Error(`code-server did not start (log: ${logFile}): ${error instanceof Error ? error.message : String(error)}`);
    }
    return { origin, port, userDataDir, extensionsDir, logFile, process: child, stop: () => stopGroup(child) };
  };
  try {
    return await launch(options.port);
  } catch (error) {
    if (!(error instanceof PortTakenError)) throw error;
    // freePort() only saw the port free a moment ago: another process took it since. Once more.
    const port = await freePort();
    console.log(`[host] port ${options.port} was taken before code-server could listen on it; retrying on ${port}`);
    fs.appendFileSync(logFile, `\n[host] port ${options.port} was taken (EADDRINUSE); retrying on ${port}\n`);
    try {
      return await launch(port);
    } catch (retryError) {
      if (retryError instanceof PortTakenError) throw new Error(`code-server could not listen: ports ${options.port} and ${port} were both taken (log: ${logFile})`);
      throw retryError;
    }
  }
}

class PortTakenError extends Error {
  constructor(readonly port: number) {
    super(`port ${port} is taken (EADDRINUSE)`);
  }
}

/** A vscode-remote URI for an absolute path on the server (the payload's URIs must be remote). */
export function remoteUri(server: CodeServer, absolutePath: string): string {
  return `vscode-remote://127.0.0.1:${server.port}${absolutePath}`;
}
