// Which browser a package debug session launches: the `runtimeExecutable` the launch configuration names,
// or the first Chrome, Edge or Chromium found where their installers put them (as VS Code's JavaScript
// debugger looks for Chrome). The same executable both signs the profile in and is launched by the
// debugger, so the profile's format always matches.
import * as path from 'node:path';

export interface Host {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  exists(file: string): boolean;
}

const LINUX_NAMES = ['google-chrome-stable', 'google-chrome', 'chromium', 'chromium-browser', 'microsoft-edge-stable', 'microsoft-edge'];
const MAC_APPS = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
const WINDOWS_PATHS = ['Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe', 'Chromium\\Application\\chrome.exe'];

/** The places looked in, in order (environment overrides first: CHROME_PATH, as the debugger reads it). */
export function browserCandidates(host: Host): string[] {
  const env = host.env;
  const fromEnv = [env.CHROME_PATH, env.EDGE_PATH].filter((p): p is string => !!p);
  if (host.platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.ProgramFiles, env['ProgramFiles(x86)']].filter((p): p is string => !!p);
    return [...fromEnv, ...[...new Set(roots)].flatMap((root) => WINDOWS_PATHS.map((p) => path.win32.join(root, p)))];
  }
  if (host.platform === 'darwin') {
    const dirs = ['/Applications', ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : [])];
    return [...fromEnv, ...dirs.flatMap((dir) => MAC_APPS.map((app) => path.posix.join(dir, app)))];
  }
  const dirs = (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(':').filter(Boolean);
  return [...fromEnv, ...LINUX_NAMES.flatMap((name) => dirs.map((dir) => path.posix.join(dir, name))), '/snap/bin/chromium'];
}

export function findBrowser(host: Host): string | undefined {
  return browserCandidates(host).find((p) => host.exists(p));
}

/** What to tell a user whose machine has no browser the debugger can launch. */
export function noBrowserMessage(platform: NodeJS.Platform): string {
  const example =
    platform === 'win32'
      ? 'C:\\\\Program Files\\\\Google\\\\Chrome\\\\Application\\\\chrome.exe'
      : platform === 'darwin'
        ? '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'
        : '/usr/bin/chromium';
  return (
    'No Chrome, Edge or Chromium was found to debug the package in. Install one, or set "runtimeExecutable" in the ' +
    `launch configuration (.vscode/launch.json) to the browser's path, e.g. "runtimeExecutable": "${example}".`
  );
}
