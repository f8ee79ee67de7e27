// The launch configuration a `datagrok` debug configuration resolves to: VS Code's built-in JavaScript
// debugger (`pwa-chrome`) launching the signed-in browser profile at the server (or an app's URL), with
// source maps so that a breakpoint in the package's `src/*.ts` binds. Real packages are built by webpack or
// rspack (`grok build`), whose maps name sources `webpack://<package>/./src/package.ts`; the overrides map
// those (and the other forms webpack writes) into the package's folder. No vscode: unit-tested.
import * as path from 'node:path';
import { badInput } from '../../../api/errors';
import { findPackageFolders } from '../recognition';

/** The `datagrok` configuration as launch.json holds it (after VS Code substituted its variables). */
export interface DatagrokLaunch {
  name?: string;
  /** The package's folder. */
  package?: string;
  /** What to open: a path on the server (`/apps/MyApp`), or a URL on the server; default its root. */
  url?: string;
  /** Build and publish (debug) first; default true. */
  publish?: boolean;
  runtimeExecutable?: string;
  runtimeArgs?: string[];
}

/** The server's web root from its API base URL (`https://host/api` → `https://host`). */
export function webOrigin(apiBaseUrl: string): string {
  const u = new URL(apiBaseUrl);
  const pathname = u.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
  return `${u.origin}${pathname}`;
}

/** The page the browser opens: the server's root, a path on it, or a full URL on it (not elsewhere: only the server is signed in). */
export function pageUrl(root: string, url: string | undefined): string {
  const given = (url ?? '').trim();
  if (given === '') return `${root}/`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(given)) {
    let u: URL;
    try {
      u = new URL(given);
    } catch {
      throw badInput(`"url" is not a valid URL: ${given}. Give a path on the server (e.g. "/apps/MyApp") or a URL on ${root}.`);
    }
    if (u.origin !== new URL(root).origin)
      throw badInput(`"url" (${given}) is not on the server you are signed in to (${root}): the browser is signed in there only. Give a path such as "/apps/MyApp".`);
    return u.toString();
  }
  return `${root}/${given.replace(/^\/+/, '')}`;
}

export interface ChromeLaunch {
  folder: string;
  packageName: string;
  url: string;
  browser: string;
  profile: string;
  runtimeArgs?: string[];
  name?: string;
}

/** The `pwa-chrome` configuration handed to VS Code's JavaScript debugger. */
export function chromeConfiguration(o: ChromeLaunch): Record<string, unknown> {
  const npm = o.packageName;
  const bare = npm.split('/').pop() ?? npm;
  const inFolder = path.join(o.folder, '*');
  const overrides: Record<string, string> = {};
  for (const ns of [...new Set([npm, bare])]) {
    overrides[`webpack://${ns}/./*`] = inFolder;
    overrides[`webpack://${ns}/*`] = inFolder;
  }
  Object.assign(overrides, { 'webpack:///./*': inFolder, 'webpack:///src/*': path.join(o.folder, 'src', '*'), 'webpack:///*': '*', 'webpack://?:*/*': inFolder });
  return {
    type: 'pwa-chrome',
    request: 'launch',
    name: o.name ?? `Debug ${bare} on Datagrok`,
    url: o.url,
    runtimeExecutable: o.browser,
    ...(o.runtimeArgs?.length ? { runtimeArgs: o.runtimeArgs } : {}),
    userDataDir: o.profile,
    webRoot: o.folder,
    sourceMaps: true,
    outFiles: [path.join(o.folder, 'dist', '**', '*.js'), `!${path.join(o.folder, '**', 'node_modules', '**')}`],
    sourceMapPathOverrides: overrides,
    // The browser runs where the extension host runs (its profile is the extension's).
    browserLaunchLocation: 'workspace',
  };
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: a launch.json variable, substituted by VS Code
const WORKSPACE_FOLDER = '${workspaceFolder}';

/** A `datagrok` configuration for each package under `root` (a workspace folder), `package` relative to it. */
export function configurationsFor(root: string): { type: string; request: string; name: string; package: string }[] {
  return findPackageFolders(root).map((folder) => {
    const rel = path.relative(root, folder).split(path.sep).join('/');
    return { type: 'datagrok', request: 'launch', name: `Debug ${path.basename(folder)} on Datagrok`, package: rel ? `${WORKSPACE_FOLDER}/${rel}` : WORKSPACE_FOLDER };
  });
}
