// The `datagrok-bundle-code:` file system: a bundle entity's code (a script's `script`, a query's `query`) as a
// document in its language. Its path is the entity's JSON file with the language's extension instead of `.json`
// (`Script/Scripts.Greet.json` → `Script/Scripts.Greet.js`), so VS Code picks the language and the script
// header's completion, hover and checks apply. A save writes the code back into that one string of the JSON file
// (a normal file write: Git and the editors see it); when the code on disk changed since the editor loaded it,
// the save is refused and nothing is written.
import * as vscode from 'vscode';
import { CodeChangedOnDisk, entityCode, withCode } from '../platform/bundles/entityCode';

export const BUNDLE_CODE_SCHEME = 'datagrok-bundle-code';
/** Registered at activation with these options (src/start/lazyFeatures.ts): the same on both sides. */
export const BUNDLE_CODE_OPTIONS = { isCaseSensitive: true };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The code document of an entity's JSON file (a file: Uri) whose language reads best with `ext`. */
export function codeUriOf(json: vscode.Uri, ext: string): vscode.Uri {
  return json.with({ scheme: BUNDLE_CODE_SCHEME, path: `${json.path.replace(/\.json$/i, '')}.${ext}` });
}

/** The entity's JSON file of a code document. */
export function jsonUriOf(code: vscode.Uri): vscode.Uri {
  return code.with({ scheme: 'file', path: code.path.replace(/\.[^./]*$/, '.json') });
}

const nameOf = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/** A provider's failure as VS Code shows it: the file system's kind of error, with our message. */
function failure(e: unknown, code: vscode.Uri): Error {
  if (e instanceof vscode.FileSystemError) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof CodeChangedOnDisk)
    return new Error(
      `${message} Save As… to keep your edits elsewhere, then Discard (File: Revert File) to reload ${nameOf(code)} from ${nameOf(jsonUriOf(code))} and make them again.`,
    );
  return new Error(message);
}

export class BundleCodeFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /**
   * Per code document: its text when it last matched the disk (opened, saved, reloaded); a save is refused unless
   * the disk still has that code. Taken from the document, not from reads: VS Code also reads a file it then
   * throws away. Unknown for a document restored with unsaved edits: VS Code's own check (the modification time
   * below) guards it then.
   */
  private readonly bases = new Map<string, string>();
  /** Per code document: how many times `clean` has asked the disk (only the latest answer counts). */
  private readonly cleanAsked = new Map<string, number>();
  /**
   * Per code document: the code last seen on disk and the modification time reported for it. It moves only when
   * the code moves, so a change to the JSON file's other keys neither reloads the editor nor makes VS Code call
   * a save a conflict (the save keeps that change: only the code string is written).
   */
  private readonly seen = new Map<string, { code: string; mtime: number }>();
  /** The JSON files watched for the code documents open now. */
  private readonly watchers = new Map<string, vscode.Disposable>();
  private readonly documents = [
    vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.uri.scheme !== BUNDLE_CODE_SCHEME) return;
      this.watchJson(d.uri);
      this.clean(d);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => this.clean(e.document)),
    vscode.workspace.onDidSaveTextDocument((d) => this.clean(d)),
    vscode.workspace.onDidCloseTextDocument((d) => this.unwatch(d.uri)),
  ];

  watch(): vscode.Disposable {
    // Watched while a document is open instead (VS Code does not ask every scheme's provider to watch one).
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const stat = await Promise.resolve(vscode.workspace.fs.stat(jsonUriOf(uri))).then(undefined, () => undefined);
    if (stat?.type !== vscode.FileType.File) {
      // A folder of the bundle (VS Code looks at the parents before a write, a Save As dialog at the folder).
      const folder = await Promise.resolve(vscode.workspace.fs.stat(uri.with({ scheme: 'file' }))).then(undefined, () => undefined);
      if (folder?.type === vscode.FileType.Directory) return folder;
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const code = await this.read(uri);
    const key = uri.toString();
    let seen = this.seen.get(key);
    if (!seen || seen.code !== code) {
      seen = { code, mtime: Math.max(stat.mtime, (seen?.mtime ?? 0) + 1) };
      this.seen.set(key, seen);
    }
    return { type: vscode.FileType.File, ctime: stat.ctime, mtime: seen.mtime, size: encoder.encode(code).byteLength };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return encoder.encode(await this.read(uri));
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    const json = jsonUriOf(uri);
    let text: string;
    try {
      text = decoder.decode(await vscode.workspace.fs.readFile(json));
    } catch {
      if (options.create && !options.overwrite) throw vscode.FileSystemError.NoPermissions(`${nameOf(uri)} is the code of a bundle entity; create the entity's JSON file instead.`);
      throw new Error(`${nameOf(json)} is gone, so the code cannot be saved into it: Save As… to keep it in a file of its own.`);
    }
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === json.toString());
    if (open?.isDirty) throw new Error(`${nameOf(json)} has unsaved changes in its editor: save or revert them first, then save the code again (nothing was written).`);
    const code = decoder.decode(content);
    let next: string;
    try {
      next = withCode(text, json.fsPath, this.bases.get(uri.toString()), code);
    } catch (e) {
      throw failure(e, uri);
    }
    if (next !== text) await vscode.workspace.fs.writeFile(json, encoder.encode(next));
    this.bases.set(uri.toString(), code);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${uri.path}: the code documents of a bundle cannot hold folders.`);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${nameOf(uri)} is the code of ${nameOf(jsonUriOf(uri))}: delete the JSON file instead.`);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(`${nameOf(uri)} is the code of ${nameOf(jsonUriOf(uri))}: rename the JSON file instead.`);
  }

  /** The code the JSON file holds now. */
  private async read(uri: vscode.Uri): Promise<string> {
    const json = jsonUriOf(uri);
    let text: string;
    try {
      text = decoder.decode(await vscode.workspace.fs.readFile(json));
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    try {
      return entityCode(text, json.fsPath).code;
    } catch (e) {
      throw failure(e, uri);
    }
  }

  /** Tells VS Code when the JSON file changes, so a code document with no unsaved edits shows the new code. */
  private watchJson(uri: vscode.Uri): void {
    const key = uri.toString();
    if (this.watchers.has(key)) return;
    const json = jsonUriOf(uri);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(json, '..'), nameOf(json)));
    const fire = (type: vscode.FileChangeType) => () => this.changed.fire([{ type, uri }]);
    this.watchers.set(
      key,
      vscode.Disposable.from(
        watcher,
        watcher.onDidChange(fire(vscode.FileChangeType.Changed)),
        watcher.onDidCreate(fire(vscode.FileChangeType.Created)),
        watcher.onDidDelete(fire(vscode.FileChangeType.Deleted)),
      ),
    );
  }

  /**
   * A code document without unsaved edits (opened, saved, reloaded) whose text is the code on disk: that code is
   * the base of its next save. Compared with the disk, because the document's dirty flag may arrive after an edit.
   */
  private clean(document: vscode.TextDocument): void {
    if (document.uri.scheme !== BUNDLE_CODE_SCHEME || document.isDirty) return;
    // The text as it is now, clean: by the time the disk is read the user may have typed (a busy host).
    const text = document.getText();
    const key = document.uri.toString();
    const asked = (this.cleanAsked.get(key) ?? 0) + 1;
    this.cleanAsked.set(key, asked);
    void this.read(document.uri).then(
      (code) => {
        if (code === text && this.cleanAsked.get(key) === asked) this.bases.set(key, code);
      },
      () => undefined,
    );
  }

  /** A closed document's watch ends; what it loaded stays known (its editor may be restored with unsaved edits). */
  private unwatch(uri: vscode.Uri): void {
    const key = uri.toString();
    this.watchers.get(key)?.dispose();
    this.watchers.delete(key);
  }

  dispose(): void {
    for (const d of this.documents) d.dispose();
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
    this.changed.dispose();
  }
}
