// Which workspace folders are bundles (a grok-format manifest.json: `formatVersion` and an `order` list), in
// the context key `datagrok.bundleFolders` (their paths), so the Explorer's context menu offers Diff and Push
// on the folder itself (`resourcePath in datagrok.bundleFolders`), not only on its manifest.json. Made at
// activation and kept by a file watcher: small, reads only manifest.json files, no network.
import * as vscode from 'vscode';

export const BUNDLE_FOLDERS_KEY = 'datagrok.bundleFolders';
const MANIFEST_GLOB = '**/manifest.json';
/** Enough for any real workspace; a monorepo's thousand package manifests are not read. */
const MAX_MANIFESTS = 500;

export interface BundleFolders extends vscode.Disposable {
  /** The bundle folders' paths (as the Explorer's `resourcePath`), sorted. */
  folders(): string[];
  /**
   * Looks at one manifest now: what the extension itself just wrote is known without waiting for the file
   * watcher (whose events may come late, or not at all for a folder made right after it started).
   */
  check(manifest: vscode.Uri): Promise<void>;
}

async function isBundleManifest(uri: vscode.Uri): Promise<boolean> {
  try {
    const json = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))) as { formatVersion?: unknown; order?: unknown };
    return typeof json?.formatVersion === 'number' && Array.isArray(json.order);
  } catch {
    return false;
  }
}

const folderOf = (manifest: vscode.Uri) => vscode.Uri.joinPath(manifest, '..').fsPath;

/** `changed`: a bundle folder whose manifest.json was made, changed or deleted (a pull, a checkout). */
export function watchBundleFolders(log: { warn(message: string): void }, changed: (dir: string) => void = () => undefined): BundleFolders {
  const folders = new Set<string>();
  let published = '';
  const publish = () => {
    const list = [...folders].sort();
    const text = JSON.stringify(list);
    if (text === published) return;
    published = text;
    void vscode.commands.executeCommand('setContext', BUNDLE_FOLDERS_KEY, list);
  };
  const check = async (manifest: vscode.Uri) => {
    if (manifest.scheme !== 'file') return;
    if (await isBundleManifest(manifest)) folders.add(folderOf(manifest));
    else folders.delete(folderOf(manifest));
    publish();
  };
  const scan = async () => {
    try {
      const found = await vscode.workspace.findFiles(MANIFEST_GLOB, '**/node_modules/**', MAX_MANIFESTS);
      const bundles = await Promise.all(found.filter((u) => u.scheme === 'file').map(async (u) => ((await isBundleManifest(u)) ? folderOf(u) : undefined)));
      folders.clear();
      for (const f of bundles) if (f) folders.add(f);
      publish();
    } catch (e) {
      log.warn(`Looking for bundle folders failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const watcher = vscode.workspace.createFileSystemWatcher(MANIFEST_GLOB);
  const subscriptions = [
    watcher,
    watcher.onDidCreate((u) => void check(u).then(() => changed(folderOf(u)))),
    watcher.onDidChange((u) => void check(u).then(() => changed(folderOf(u)))),
    watcher.onDidDelete((u) => {
      changed(folderOf(u));
      folders.delete(folderOf(u));
      publish();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void scan()),
  ];
  void scan();
  return {
    folders: () => [...folders].sort(),
    check,
    dispose: () => {
      for (const s of subscriptions) s.dispose();
    },
  };
}
