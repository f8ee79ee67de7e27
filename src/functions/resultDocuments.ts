// Function results as read-only documents: `datagrok-result:/<run>/Demo:Add — result` (JSON) and
// `datagrok-result:/<run>/Demo:Filter — result.csv` (a dataframe). A file system registered read-only:
// the editor shows them read-only, never dirty, writes are refused, and `workspace.fs.readFile` reads
// them (Push as Table, Save As). Contents live in memory; after a reload a restored editor asks
// `load`, which reads the remembered run (so do the results of older runs, once more than 20 runs'
// results were shown).
import * as vscode from 'vscode';
import type { ResultPart } from './resultParts';

export const RESULT_SCHEME = 'datagrok-result';

const READ_ONLY = 'Function results are read-only: use "Save Result As…" to keep a copy you can edit.';

/**
 * `datagrok-result:/Demo:Add(a: 2, b: 3)/Demo:Add — result?run=<id>`: the folder (the breadcrumbs show
 * it) names the function and its inputs; the run's ID rides in the query. Without a folder, the run ID.
 */
export function resultUri(runId: string, part: Pick<ResultPart, 'name'>, folder: string = runId): vscode.Uri {
  return vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${folder}/${part.name}`, query: `run=${encodeURIComponent(runId)}` });
}

/** The run a result document belongs to: its `run=` query, else (URIs of earlier versions) its first path segment. */
export function runIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== RESULT_SCHEME) return undefined;
  return new URLSearchParams(uri.query).get('run') || uri.path.split('/')[1] || undefined;
}

/** Where a result's text is kept: by run and part name, whatever the folder says. */
function keyOf(uri: vscode.Uri): string {
  return `/${runIdOf(uri)}/${uri.path.slice(uri.path.lastIndexOf('/') + 1)}`;
}

/** The results of this many runs stay in memory; older ones are read again from the Runs store. */
const RUNS_IN_MEMORY = 20;

export class ResultFileSystem implements vscode.FileSystemProvider {
  private readonly contents = new Map<string, { data: Uint8Array; mtime: number }>();
  /** Run IDs in memory, least recently put first. */
  private readonly order: string[] = [];
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Finds a run's parts when they are not in memory (after a reload). */
  load: ((runId: string) => Promise<ResultPart[] | undefined>) | undefined;

  /** Keeps a run's parts; returns their URIs in order (under `folder`, the function and its inputs, when given). */
  put(runId: string, parts: readonly ResultPart[], folder?: string): vscode.Uri[] {
    const now = Date.now();
    const at = this.order.indexOf(runId);
    if (at >= 0) this.order.splice(at, 1);
    this.order.push(runId);
    while (this.order.length > RUNS_IN_MEMORY) this.forget(this.order[0]);
    return parts.map((part) => {
      const uri = resultUri(runId, part, folder);
      this.contents.set(keyOf(uri), { data: new TextEncoder().encode(part.text), mtime: now });
      return uri;
    });
  }

  /** Forgets a run's contents (its run was removed). */
  forget(runId: string): void {
    const at = this.order.indexOf(runId);
    if (at >= 0) this.order.splice(at, 1);
    for (const key of [...this.contents.keys()]) if (key.startsWith(`/${runId}/`)) this.contents.delete(key);
  }

  private async entry(uri: vscode.Uri): Promise<{ data: Uint8Array; mtime: number }> {
    let hit = this.contents.get(keyOf(uri));
    const runId = runIdOf(uri);
    if (!hit && runId && this.load) {
      const parts = await this.load(runId);
      if (parts) this.put(runId, parts);
      hit = this.contents.get(keyOf(uri));
    }
    if (!hit) throw vscode.FileSystemError.FileNotFound(uri);
    return hit;
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (uri.path === '/' || /^\/[^/]+$/.test(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    const hit = await this.entry(uri);
    return { type: vscode.FileType.File, ctime: hit.mtime, mtime: hit.mtime, size: hit.data.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.entry(uri)).data;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY);
  }

  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY);
  }

  delete(): never {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY);
  }

  rename(): never {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
