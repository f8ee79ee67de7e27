// Datagrok packages: this folder owns what the extension knows of the packages in a workspace — what
// makes a folder one (here), the files grok reads in it (walk.ts), their function annotations
// (annotations.ts, on the script-header grammar), and `grok check`'s rules run without the CLI (check.ts
// and the check*.ts files it calls, roles.ts), each finding on the line it is about. No vscode: the
// packages feature (src/packages/), the `datagrok.packages.check` command and the tests share it.
//
// A package, as `grok` sees one: a folder with a `package.json` that depends on `datagrok-api`, and
// `src/package.ts` (or `src/package.js`, or a `package.js` at its root). A workspace may hold many
// (a monorepo's `packages/*`, pnpm workspaces); none inside `node_modules`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Where a package's functions are declared (datagrok-tools check.js `packageFiles`, the entry points). */
export const PACKAGE_ENTRY_FILES = ['src/package.ts', 'src/package.js', 'package.js'];

/** Whether a `package.json`'s text is a Datagrok package's: it depends on `datagrok-api`. */
export function dependsOnDatagrokApi(packageJson: string): boolean {
  try {
    const json = JSON.parse(packageJson) as Record<string, Record<string, unknown> | undefined>;
    return ['dependencies', 'devDependencies', 'peerDependencies'].some((k) => typeof json[k] === 'object' && json[k] !== null && 'datagrok-api' in (json[k] as object));
  } catch {
    return false;
  }
}

/** Whether `folder` is a Datagrok package. */
export function isPackageFolder(folder: string): boolean {
  if (folder.split(path.sep).includes('node_modules')) return false;
  if (!PACKAGE_ENTRY_FILES.some((f) => existsSync(path.join(folder, f)))) return false;
  try {
    return dependsOnDatagrokApi(readFileSync(path.join(folder, 'package.json'), 'utf8'));
  } catch {
    return false;
  }
}

/** The package a file belongs to: the nearest folder above it (or it, for a folder) that is a package. */
export function packageFolderOf(file: string): string | undefined {
  let dir = path.dirname(file);
  for (;;) {
    if (path.basename(dir) === 'node_modules') return undefined;
    if (existsSync(path.join(dir, 'package.json')) && isPackageFolder(dir)) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The packages under `root` (it included), as `grok check --recursive` finds them: no `node_modules`, no dot folders. */
export function findPackageFolders(root: string, depth = 6): string[] {
  const found: string[] = [];
  const visit = (dir: string, left: number) => {
    if (isPackageFolder(dir)) found.push(dir);
    if (left === 0) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) visit(path.join(dir, e.name), left - 1);
  };
  visit(root, depth);
  return found.sort();
}
