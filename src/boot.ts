// The extension's first file (package.json "main", dist/boot.js): it loads the entry, dist/extension.js,
// through V8's code cache in the extension's global storage (src/start/codeCache.ts) and hands it the
// activation. Nothing else: what activation does is the entry's (src/extension.ts).
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type * as Entry from './extension';
import { codeCacheDir, loadBundle } from './start/codeCache';

let entry: typeof Entry | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<Entry.DatagrokExtensionApi> {
  const storage = context.globalStorageUri.fsPath;
  const loaded = loadBundle(path.join(__dirname, 'extension.js'), storage);
  entry = loaded.exports as typeof Entry;
  return entry.activate(context, { entryCache: loaded.cache, cacheDir: codeCacheDir(storage), loadBundle: (file) => loadBundle(file, storage) });
}

export function deactivate(): void {
  entry?.deactivate();
}
