// Connector files as a VS Code file system on the `datagrok` scheme (see uris.ts for the URI form). Reads cost one download: VS Code asks for
// a file's stat and its content together, and both are answered by the same request (kept for a few seconds). Saving, deleting and renaming a
// file already read or written here never download it for a stat: the folder listing (small) answers when the server has one. Folders are
// listed through the server's listing route when it has one, otherwise from the files this workspace knows (src/platform/files/known.ts).
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { Connection } from '../connection/connection';
import { maxEditorBytes } from '../core/limits';
import { contentHash } from '../platform/files/versions';
import type { KnownFiles } from '../platform/files/known';
import { type Content, FileCache, type Target } from './fileCache';
import { changedOnServer, directory, readFailure, toFileSystemError, tooLargeMessage } from './fileErrors';
import { moveOnServer, refuseSameFile } from './rename';
import { clientForAuthority } from './servers';
import { SignedOutPlaceholder } from './signedOut';
import { parseUri } from './uris';
import { baseName, displayPath, parentPath } from './connectorPaths';

export class ConnectorFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  private readonly cache: FileCache;
  /** Signed out, a mounted folder lists one entry saying why (signedOut.ts). */
  private readonly signedOut: SignedOutPlaceholder;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly connection: Connection,
    known: KnownFiles,
    /** Offers to download a file too large for an editor (never awaited). */
    private readonly offerDownload: (uri: vscode.Uri, message: string) => void,
  ) {
    this.cache = new FileCache(known);
    this.signedOut = new SignedOutPlaceholder(connection);
    this.subscriptions = [
      this.changes,
      connection.onDidChange(() => this.cache.forgetAll()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('datagrok.files.maxEditorFileSizeMB')) this.cache.contents.clear();
      }),
    ];
  }

  watch(): vscode.Disposable {
    // Changes made through this extension are announced by it; the server has no change feed.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const placeholder = await this.signedOut.stat(uri);
    if (placeholder) return placeholder;
    const t = await this.target(uri);
    if (this.cache.isFolder(t)) return directory();
    const cached = this.cache.contents.peek(t.key);
    if (cached) return this.cache.fileStat(t, cached);
    const listed = this.cache.listedEntry(t);
    if (listed) return listed.isFile ? this.cache.listedStat(t, listed) : directory();
    // Only another case of this name is listed (report.csv for Report.csv): on a case-insensitive store
    // a download would answer with that file, and VS Code, which tells the names apart, would delete or
    // overwrite it as if it were this one (a case-only rename deletes the target first).
    if (await this.cache.onlyOtherCaseListed(t)) throw vscode.FileSystemError.FileNotFound(t.uri);
    // A file read or written here: VS Code stats it before every save (its conflict check), when its
    // content is no longer cached. A fresh listing answers when its `updatedOn` can be compared with
    // that content's version (FileVersions); otherwise the download below does, its hash telling
    // whether someone changed the file. A first open costs one download, shared with the readFile.
    if (this.cache.versions.hasContent(t.key) && !this.cache.versions.needsContentCheck(t.key)) {
      const entry = await this.cache.listedEntryFetched(t);
      if (entry && !entry.isFile) return directory();
      if (entry?.updatedOn !== undefined) return this.cache.listedStat(t, entry);
    }
    // A download (bounded by the editor limit) serves the stat and the readFile that follows it.
    try {
      const content = await this.cache.content(t);
      if ('tooLarge' in content) await this.cache.listedSize(t); // the size, when the server can list
      return this.cache.fileStat(t, content);
    } catch (error) {
      if (isDatagrokError(error, 'notFound') && (await this.cache.isServerFolder(t))) return directory();
      throw await this.readFailure(t, error);
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const placeholder = await this.signedOut.read(uri);
    if (placeholder) return placeholder;
    const t = await this.target(uri);
    if (this.cache.isFolder(t)) throw vscode.FileSystemError.FileIsADirectory(uri);
    const listedSize = this.cache.listedEntry(t)?.size;
    let content: Content;
    if (listedSize !== undefined && listedSize > maxEditorBytes()) {
      content = { tooLarge: true };
    } else {
      try {
        content = await this.cache.content(t);
      } catch (error) {
        throw await this.readFailure(t, error);
      }
    }
    if ('tooLarge' in content) {
      const message = tooLargeMessage(t, listedSize);
      this.offerDownload(uri, message);
      throw new vscode.FileSystemError(message);
    }
    this.cache.versions.observeContent(t.key, content.hash, content.data.byteLength, content.serverTime);
    this.cache.versions.markRead(t.key);
    await this.cache.known.add(t.baseUrl, t.connector, t.path);
    return content.data;
  }

  /**
   * For the open command: undefined when the file can be opened in an editor, or the message saying
   * it is too large. The content it downloads is the one the editor then reads.
   */
  async tooLargeForEditor(uri: vscode.Uri): Promise<string | undefined> {
    const t = await this.target(uri);
    if (this.cache.isFolder(t)) throw vscode.FileSystemError.FileIsADirectory(`${displayPath(t)} is a folder, not a file.`);
    const listedSize = this.cache.listedEntry(t)?.size;
    if (listedSize !== undefined && listedSize > maxEditorBytes()) return tooLargeMessage(t, listedSize);
    try {
      const content = await this.cache.content(t);
      return 'tooLarge' in content ? tooLargeMessage(t, await this.cache.listedSize(t)) : undefined;
    } catch (error) {
      throw await this.readFailure(t, error);
    }
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const placeholder = await this.signedOut.listing(uri);
    if (placeholder) return placeholder;
    const t = await this.target(uri);
    let listed: [string, vscode.FileType][];
    try {
      // Always asked afresh (a refresh of the Explorer must show the server's state).
      listed = (await this.cache.list(t, t.path, true)).map((e) => [e.name, e.isFile ? vscode.FileType.File : vscode.FileType.Directory]);
    } catch (error) {
      // A folder created here or holding known files may not exist on the server yet; an unknown
      // connector (its root not found) is an error.
      const localFolder = t.path !== '' && (this.cache.createdFolders.has(t.key) || this.cache.known.isFolder(t.baseUrl, t.connector, t.path));
      const fallback = isDatagrokError(error, 'unsupported') || (isDatagrokError(error, 'notFound') && localFolder);
      if (!fallback) throw toFileSystemError(error);
      // The server cannot list (or does not have this folder yet): show the files known here.
      listed = this.cache.known.children(t.baseUrl, t.connector, t.path).map((e) => [e.name, e.isFile ? vscode.FileType.File : vscode.FileType.Directory]);
    }
    const names = new Set(listed.map(([name]) => name));
    const prefix = t.path ? `${t.key}/` : t.key;
    for (const folder of this.cache.createdFolders) {
      const rest = folder.startsWith(prefix) ? folder.slice(prefix.length) : '';
      if (rest && !rest.includes('/') && !names.has(rest)) listed.push([rest, vscode.FileType.Directory]);
    }
    return listed;
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    const t = await this.target(uri);
    if (t.path === '') throw vscode.FileSystemError.FileExists(uri);
    // Connectors have no empty folders: this one appears on the server with its first file.
    this.cache.createdFolders.add(t.key);
    this.fire(vscode.FileChangeType.Created, uri);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const t = await this.target(uri);
    if (this.cache.isFolder(t)) throw vscode.FileSystemError.FileIsADirectory(uri);
    if (!options.create || !options.overwrite) {
      const exists = (await this.kind(t)) !== undefined;
      if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
      if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    }
    if (this.cache.versions.changedUnseen(t.key)) throw changedOnServer(t);
    const existed = this.cache.versions.peek(t.key) !== undefined || this.cache.known.has(t.baseUrl, t.connector, t.path);
    let serverTime: number | undefined;
    try {
      await t.client.uploadFile(t.connector, t.path, { data: content }, { onServerTime: (ms) => (serverTime = ms) });
    } catch (error) {
      // The editor stays dirty and shows this message: nothing is lost silently.
      throw toFileSystemError(error);
    }
    const hash = contentHash(content);
    this.cache.contents.set(t.key, { data: content, hash, serverTime });
    this.cache.versions.observeWrite(t.key, hash, content.byteLength, serverTime);
    await this.noteWritten(t, existed);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const t = await this.target(uri);
    if (t.path === '') throw vscode.FileSystemError.NoPermissions(`The root of ${displayPath(t)} cannot be deleted.`);
    if (this.cache.createdFolders.has(t.key)) {
      this.cache.createdFolders.delete(t.key);
      this.fire(vscode.FileChangeType.Deleted, uri);
      return;
    }
    const kind = await this.kind(t, true);
    if (kind === vscode.FileType.Directory) {
      throw vscode.FileSystemError.NoPermissions(`${displayPath(t)} is a folder: deleting folders is not supported; delete the files in it instead.`);
    }
    if (kind === undefined) throw vscode.FileSystemError.FileNotFound(`${displayPath(t)} was not found on ${t.authority}.`);
    try {
      await t.client.deleteFile(t.connector, t.path);
    } catch (error) {
      if (isDatagrokError(error, 'notFound')) throw await this.readFailure(t, error);
      throw toFileSystemError(error);
    }
    await this.cache.forgetFile(t);
    this.fire(vscode.FileChangeType.Deleted, uri);
  }

  /** Rename = upload the new file from the old content, then delete the old one; refused up front when the server cannot delete. */
  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    const from = await this.target(oldUri);
    const to = await this.target(newUri);
    if (from.baseUrl !== to.baseUrl) {
      throw vscode.FileSystemError.NoPermissions('Moving files between Datagrok servers is not supported: download and upload them instead.');
    }
    refuseSameFile(from, to);
    // The one download of a rename is the copy below: what the source and target are comes from what
    // is known here or the folder listing when there is one.
    const kind = await this.kind(from, true);
    if (kind === vscode.FileType.Directory) {
      throw vscode.FileSystemError.NoPermissions(`${displayPath(from)} is a folder: renaming folders is not supported.`);
    }
    if (kind === undefined) throw vscode.FileSystemError.FileNotFound(`${displayPath(from)} was not found on ${from.authority}.`);
    const targetKind = await this.kind(to);
    if (targetKind === vscode.FileType.Directory) throw vscode.FileSystemError.FileIsADirectory(newUri);
    const targetExisted = targetKind !== undefined;
    if (targetExisted && !options.overwrite) throw vscode.FileSystemError.FileExists(newUri);
    await moveOnServer(from, to, targetExisted);
    await this.cache.forgetFile(from);
    this.cache.contents.delete(to.key);
    this.cache.versions.forget(to.key);
    await this.noteWritten(to, targetExisted);
    this.fire(vscode.FileChangeType.Deleted, oldUri);
  }

  /** A file was uploaded outside the file system (upload command): open editors and folders follow. */
  async noteUploaded(uri: vscode.Uri): Promise<void> {
    const t = await this.target(uri);
    const existed = this.cache.versions.peek(t.key) !== undefined || this.cache.known.has(t.baseUrl, t.connector, t.path);
    this.cache.contents.delete(t.key);
    await this.noteWritten(t, existed);
  }

  /** Mounted roots changed as a whole (sign-in, sign-out): VS Code lists them again. */
  rootsChanged(uris: vscode.Uri[]): void {
    this.changes.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  private async target(uri: vscode.Uri): Promise<Target> {
    const parsed = parseUri(uri);
    const { baseUrl, client } = await clientForAuthority(this.connection, parsed.authority, displayPath(parsed));
    this.cache.checkSpelling(baseUrl, parsed);
    return { ...parsed, uri, baseUrl, client, key: `${baseUrl}|${parsed.connector}|${parsed.path}` };
  }

  /**
   * File, folder or undefined (not there), without downloading the file when it can be helped: from
   * what is known here (`trustKnown`: a file known here is taken to be one; the request that follows
   * says if it is gone), then the folder listing. Only a server that cannot list falls back to stat,
   * which downloads the file.
   */
  private async kind(t: Target, trustKnown = false): Promise<vscode.FileType | undefined> {
    if (this.cache.isFolder(t)) return vscode.FileType.Directory;
    if (this.cache.contents.peek(t.key)) return vscode.FileType.File;
    const listed = this.cache.listedEntry(t);
    if (listed) return listed.isFile ? vscode.FileType.File : vscode.FileType.Directory;
    if (trustKnown && (this.cache.versions.hasContent(t.key) || this.cache.known.has(t.baseUrl, t.connector, t.path))) return vscode.FileType.File;
    try {
      const name = baseName(t.path);
      // Asked afresh: a recent listing that misses the file may predate it.
      const entry = (await this.cache.list(t, parentPath(t.path), true)).find((e) => e.name === name);
      return entry === undefined ? undefined : entry.isFile ? vscode.FileType.File : vscode.FileType.Directory;
    } catch (error) {
      if (isDatagrokError(error, 'notFound')) return undefined; // its folder is not there either
      if (!isDatagrokError(error, 'unsupported')) throw toFileSystemError(error);
    }
    try {
      return (await this.stat(t.uri)).type;
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
      throw error;
    }
  }

  private readFailure(t: Target, error: unknown): Promise<Error> {
    return readFailure(t, error, () => this.cache.forgetFile(t));
  }

  private async noteWritten(t: Target, existed: boolean): Promise<void> {
    await this.cache.recordWrite(t);
    this.fire(existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, t.uri);
  }

  private fire(type: vscode.FileChangeType, uri: vscode.Uri): void {
    this.changes.fire([{ type, uri }]);
  }
}
