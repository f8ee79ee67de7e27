// Connector files as a VS Code file system on the `datagrok` scheme (see uris.ts for the URI form).
// Reads cost one download: VS Code asks for a file's stat and its content together, and both are
// answered by the same request (kept for a few seconds). Saving, deleting and renaming a file already
// read or written here never download it for a stat: the folder listing (small) answers when the
// server has one. Folders are listed through the server's listing route when it has one, otherwise
// from the files this workspace knows (knownFiles.ts).
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DatagrokError, isDatagrokError } from '../api/errors';
import type { DatagrokApi, FileEntry } from '../api/types';
import type { Connection } from '../connection/connection';
import { maxEditorBytes } from '../core/limits';
import { contentHash, FileVersions } from '../platform/fileVersions';
import type { KnownFiles } from '../platform/knownFiles';
import { RecentResults } from '../platform/recentResults';
import { clientForAuthority } from './servers';
import { baseName, type ConnectorPath, displayPath, parentPath, parseUri } from './uris';

/** A file's content as last downloaded, or why it was not (too large for an editor). */
type Content = { data: Uint8Array; hash: string } | { tooLarge: true };

interface Target extends ConnectorPath {
  readonly uri: vscode.Uri;
  readonly baseUrl: string;
  readonly client: DatagrokApi;
  /** Identifies the file or folder across servers and connectors. */
  readonly key: string;
}

const CONTENT_TTL_MS = 5000;
const LISTING_TTL_MS = 3000;

/** The error VS Code shows (FileNotFound, NoPermissions, Unavailable or a plain one) for a client failure. */
export function toFileSystemError(error: unknown): Error {
  if (error instanceof vscode.FileSystemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof DatagrokError)) return new vscode.FileSystemError(message);
  switch (error.kind) {
    case 'notFound':
      return vscode.FileSystemError.FileNotFound(message);
    case 'unauthorized':
    case 'forbidden':
    case 'unsupported':
      return vscode.FileSystemError.NoPermissions(message);
    case 'unavailable':
    case 'network':
    case 'timeout':
      return vscode.FileSystemError.Unavailable(message);
    default:
      return new vscode.FileSystemError(message);
  }
}

export class ConnectorFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;

  private readonly contents = new RecentResults<Content>(CONTENT_TTL_MS);
  private readonly listings = new RecentResults<FileEntry[]>(LISTING_TTL_MS);
  private readonly versions = new FileVersions();
  /** Folders a listing showed. */
  private readonly seenFolders = new Set<string>();
  /** Folders created here: they exist on the server only once a file is saved in them. */
  private readonly createdFolders = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly connection: Connection,
    private readonly known: KnownFiles,
    /** Offers to download a file too large for an editor (never awaited). */
    private readonly offerDownload: (uri: vscode.Uri, message: string) => void,
  ) {
    this.subscriptions = [
      this.changes,
      connection.onDidChange(() => this.forgetAll()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('datagrok.files.maxEditorFileSizeMB')) this.contents.clear();
      }),
    ];
  }

  watch(): vscode.Disposable {
    // Changes made through this extension are announced by it; the server has no change feed.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const t = await this.target(uri);
    if (this.isFolder(t)) return directory();
    const cached = this.contents.peek(t.key);
    if (cached) return this.fileStat(t, cached);
    const listed = this.listedEntry(t);
    if (listed) return listed.isFile ? this.listedStat(t, listed) : directory();
    // A file read or written here: VS Code stats it before every save, when its content is no longer
    // cached. The folder listing gives its size and time without downloading it (up to the editor
    // limit); a first open still costs one download, shared with the readFile that follows.
    if (this.versions.hasContent(t.key)) {
      const entry = await this.listedEntryFetched(t);
      if (entry) return entry.isFile ? this.listedStat(t, entry) : directory();
    }
    // A download (bounded by the editor limit) serves the stat and the readFile that follows it.
    try {
      const content = await this.content(t);
      if ('tooLarge' in content) await this.listedSize(t); // the size, when the server can list
      return this.fileStat(t, content);
    } catch (error) {
      if (isDatagrokError(error, 'notFound') && (await this.isServerFolder(t))) return directory();
      throw await this.readFailure(t, error);
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const t = await this.target(uri);
    if (this.isFolder(t)) throw vscode.FileSystemError.FileIsADirectory(uri);
    const listedSize = this.listedEntry(t)?.size;
    let content: Content;
    if (listedSize !== undefined && listedSize > maxEditorBytes()) {
      content = { tooLarge: true };
    } else {
      try {
        content = await this.content(t);
      } catch (error) {
        throw await this.readFailure(t, error);
      }
    }
    if ('tooLarge' in content) {
      const message = tooLargeMessage(t, listedSize);
      this.offerDownload(uri, message);
      throw new vscode.FileSystemError(message);
    }
    this.versions.observeContent(t.key, content.hash, content.data.byteLength);
    await this.known.add(t.baseUrl, t.connector, t.path);
    return content.data;
  }

  /**
   * For the open command: undefined when the file can be opened in an editor, or the message saying
   * it is too large. The content it downloads is the one the editor then reads.
   */
  async tooLargeForEditor(uri: vscode.Uri): Promise<string | undefined> {
    const t = await this.target(uri);
    if (this.isFolder(t)) throw vscode.FileSystemError.FileIsADirectory(`${displayPath(t)} is a folder, not a file.`);
    const listedSize = this.listedEntry(t)?.size;
    if (listedSize !== undefined && listedSize > maxEditorBytes()) return tooLargeMessage(t, listedSize);
    try {
      const content = await this.content(t);
      return 'tooLarge' in content ? tooLargeMessage(t, await this.listedSize(t)) : undefined;
    } catch (error) {
      throw await this.readFailure(t, error);
    }
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const t = await this.target(uri);
    let listed: [string, vscode.FileType][];
    try {
      // Always asked afresh (a refresh of the Explorer must show the server's state).
      listed = (await this.list(t, t.path, true)).map((e) => [e.name, e.isFile ? vscode.FileType.File : vscode.FileType.Directory]);
    } catch (error) {
      // A folder created here or holding known files may not exist on the server yet; an unknown
      // connector (its root not found) is an error.
      const localFolder = t.path !== '' && (this.createdFolders.has(t.key) || this.known.isFolder(t.baseUrl, t.connector, t.path));
      const fallback = isDatagrokError(error, 'unsupported') || (isDatagrokError(error, 'notFound') && localFolder);
      if (!fallback) throw toFileSystemError(error);
      // The server cannot list (or does not have this folder yet): show the files known here.
      listed = this.known.children(t.baseUrl, t.connector, t.path).map((e) => [e.name, e.isFile ? vscode.FileType.File : vscode.FileType.Directory]);
    }
    const names = new Set(listed.map(([name]) => name));
    const prefix = t.path ? `${t.key}/` : t.key;
    for (const folder of this.createdFolders) {
      const rest = folder.startsWith(prefix) ? folder.slice(prefix.length) : '';
      if (rest && !rest.includes('/') && !names.has(rest)) listed.push([rest, vscode.FileType.Directory]);
    }
    return listed;
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    const t = await this.target(uri);
    if (t.path === '') throw vscode.FileSystemError.FileExists(uri);
    // Connectors have no empty folders: this one appears on the server with its first file.
    this.createdFolders.add(t.key);
    this.fire(vscode.FileChangeType.Created, uri);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const t = await this.target(uri);
    if (this.isFolder(t)) throw vscode.FileSystemError.FileIsADirectory(uri);
    if (!options.create || !options.overwrite) {
      const exists = (await this.kind(t)) !== undefined;
      if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
      if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    }
    const existed = this.versions.peek(t.key) !== undefined || this.known.has(t.baseUrl, t.connector, t.path);
    try {
      await t.client.uploadFile(t.connector, t.path, { data: content });
    } catch (error) {
      // The editor stays dirty and shows this message: nothing is lost silently.
      throw toFileSystemError(error);
    }
    const hash = contentHash(content);
    this.contents.set(t.key, { data: content, hash });
    this.versions.observeWrite(t.key, hash, content.byteLength);
    await this.noteWritten(t, existed);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const t = await this.target(uri);
    if (t.path === '') throw vscode.FileSystemError.NoPermissions(`The root of ${displayPath(t)} cannot be deleted.`);
    if (this.createdFolders.has(t.key)) {
      this.createdFolders.delete(t.key);
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
    await this.forgetFile(t);
    this.fire(vscode.FileChangeType.Deleted, uri);
  }

  /** Rename = upload the new file from the old content, then delete the old one; refused up front when the server cannot delete. */
  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    const from = await this.target(oldUri);
    const to = await this.target(newUri);
    if (from.baseUrl !== to.baseUrl) {
      throw vscode.FileSystemError.NoPermissions('Moving files between Datagrok servers is not supported: download and upload them instead.');
    }
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
    await this.checkCanDelete(from);
    const temp = join(tmpdir(), `datagrok-rename-${randomUUID()}`);
    try {
      try {
        await from.client.downloadFile(from.connector, from.path, { file: temp });
        await to.client.uploadFile(to.connector, to.path, { file: temp });
      } catch (error) {
        throw toFileSystemError(error);
      }
      try {
        await from.client.deleteFile(from.connector, from.path);
      } catch (error) {
        // Undo the copy so that nothing is half-done (an overwritten file cannot be brought back).
        const undone = !targetExisted && (await to.client.deleteFile(to.connector, to.path).then(() => true, () => false));
        const why = error instanceof Error ? error.message : String(error);
        throw new vscode.FileSystemError(
          `Renaming ${displayPath(from)} failed: ${why}${undone ? ` The copy ${displayPath(to)} was removed again.` : ` ${displayPath(to)} was written; ${displayPath(from)} is still there.`}`,
        );
      }
    } finally {
      await rm(temp, { force: true });
    }
    await this.forgetFile(from);
    this.contents.delete(to.key);
    this.versions.forget(to.key);
    await this.noteWritten(to, targetExisted);
    this.fire(vscode.FileChangeType.Deleted, oldUri);
  }

  /** A file was uploaded outside the file system (upload command): open editors and folders follow. */
  async noteUploaded(uri: vscode.Uri): Promise<void> {
    const t = await this.target(uri);
    const existed = this.versions.peek(t.key) !== undefined || this.known.has(t.baseUrl, t.connector, t.path);
    this.contents.delete(t.key);
    await this.noteWritten(t, existed);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  // --- internals

  private async target(uri: vscode.Uri): Promise<Target> {
    const parsed = parseUri(uri);
    const { baseUrl, client } = await clientForAuthority(this.connection, parsed.authority, displayPath(parsed));
    return { ...parsed, uri, baseUrl, client, key: `${baseUrl}|${parsed.connector}|${parsed.path}` };
  }

  private keyOf(t: Target, path: string): string {
    return `${t.baseUrl}|${t.connector}|${path}`;
  }

  /** Known to be a folder without asking the server: the root, a folder listed, created or holding known files. */
  private isFolder(t: Target): boolean {
    return (
      t.path === '' ||
      this.seenFolders.has(t.key) ||
      this.createdFolders.has(t.key) ||
      this.known.isFolder(t.baseUrl, t.connector, t.path)
    );
  }

  private async content(t: Target): Promise<Content> {
    const loaded = await this.contents.get(t.key, async () => {
      try {
        const data = await t.client.readFile(t.connector, t.path, { maxBytes: maxEditorBytes() });
        return { data, hash: contentHash(data) };
      } catch (error) {
        // The path was checked before the request: a bounded read stops at the editor limit.
        if (isDatagrokError(error, 'tooLarge')) return { tooLarge: true };
        throw error;
      }
    });
    // A save while this download was in flight superseded it (RecentResults.set): answer the saved
    // content, not the older bytes, so that stat and readFile never go back to the pre-save version.
    return this.contents.peek(t.key) ?? loaded;
  }

  private fileStat(t: Target, content: Content): vscode.FileStat {
    if ('tooLarge' in content) {
      const listed = this.listedEntry(t);
      const mtime = this.versions.peek(t.key) ?? this.versions.observeListing(t.key, listed?.updatedOn, listed?.size);
      return { type: vscode.FileType.File, ctime: 0, mtime, size: listed?.size ?? 0 };
    }
    const mtime = this.versions.observeContent(t.key, content.hash, content.data.byteLength);
    return { type: vscode.FileType.File, ctime: 0, mtime, size: content.data.byteLength };
  }

  private listedStat(t: Target, entry: FileEntry): vscode.FileStat {
    const mtime = this.versions.observeListing(t.key, entry.updatedOn, entry.size);
    return { type: vscode.FileType.File, ctime: 0, mtime, size: entry.size ?? 0 };
  }

  /** The file's entry in a recent listing of its folder, without a request. */
  private listedEntry(t: Target): FileEntry | undefined {
    const name = baseName(t.path);
    return this.listings.peek(this.keyOf(t, parentPath(t.path)))?.find((e) => e.name === name);
  }

  private list(t: Target, dir: string, fresh = false): Promise<FileEntry[]> {
    const fetch = async () => {
      const entries = await t.client.listFiles(t.connector, dir);
      for (const e of entries) {
        const key = this.keyOf(t, dir ? `${dir}/${e.name}` : e.name);
        if (e.isFile) this.versions.observeListing(key, e.updatedOn, e.size);
        else this.seenFolders.add(key);
      }
      this.seenFolders.add(this.keyOf(t, dir));
      return entries;
    };
    const key = this.keyOf(t, dir);
    return fresh ? this.listings.fresh(key, fetch) : this.listings.get(key, fetch);
  }

  /** The file's entry in a fresh listing of its folder (undefined when the server cannot list or it is not there). */
  private async listedEntryFetched(t: Target): Promise<FileEntry | undefined> {
    try {
      const name = baseName(t.path);
      return (await this.list(t, parentPath(t.path), true)).find((e) => e.name === name);
    } catch {
      return undefined;
    }
  }

  /**
   * File, folder or undefined (not there), without downloading the file when it can be helped: from
   * what is known here (`trustKnown`: a file known here is taken to be one; the request that follows
   * says if it is gone), then the folder listing. Only a server that cannot list falls back to stat,
   * which downloads the file.
   */
  private async kind(t: Target, trustKnown = false): Promise<vscode.FileType | undefined> {
    if (this.isFolder(t)) return vscode.FileType.Directory;
    if (this.contents.peek(t.key)) return vscode.FileType.File;
    const listed = this.listedEntry(t);
    if (listed) return listed.isFile ? vscode.FileType.File : vscode.FileType.Directory;
    if (trustKnown && (this.versions.hasContent(t.key) || this.known.has(t.baseUrl, t.connector, t.path))) return vscode.FileType.File;
    try {
      const name = baseName(t.path);
      // Asked afresh: a recent listing that misses the file may predate it.
      const entry = (await this.list(t, parentPath(t.path), true)).find((e) => e.name === name);
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

  /** The file's size from a listing of its folder (undefined when the server cannot list). */
  private async listedSize(t: Target): Promise<number | undefined> {
    try {
      const name = baseName(t.path);
      return (await this.list(t, parentPath(t.path))).find((e) => e.name === name && e.isFile)?.size;
    } catch {
      return undefined;
    }
  }

  /** Whether the server lists that path as a folder (false when it cannot list). */
  private async isServerFolder(t: Target): Promise<boolean> {
    try {
      const name = baseName(t.path);
      return (await this.list(t, parentPath(t.path))).some((e) => e.name === name && !e.isFile);
    } catch {
      return false;
    }
  }

  private async readFailure(t: Target, error: unknown): Promise<Error> {
    if (isDatagrokError(error, 'notFound')) {
      // Known files only ever name files that exist: a missing one is forgotten.
      await this.forgetFile(t);
      const host = t.authority;
      return vscode.FileSystemError.FileNotFound(`${displayPath(t)} was not found on ${host}.`);
    }
    return toFileSystemError(error);
  }

  /**
   * Asks the server to delete a file that does not exist: a server with the DELETE route answers
   * "not found", one without it says the route is missing. Nothing is changed either way.
   */
  private async checkCanDelete(t: Target): Promise<void> {
    const dir = parentPath(t.path);
    const probe = `${dir ? `${dir}/` : ''}.datagrok-vscode-probe-${randomUUID()}`;
    try {
      await t.client.deleteFile(t.connector, probe);
    } catch (error) {
      if (isDatagrokError(error, 'notFound')) return;
      if (isDatagrokError(error, 'unsupported')) {
        throw vscode.FileSystemError.NoPermissions(
          `Renaming ${displayPath(t)} is not supported by this server (${t.authority}): it cannot delete files. Nothing was changed.`,
        );
      }
      throw toFileSystemError(error);
    }
  }

  private async noteWritten(t: Target, existed: boolean): Promise<void> {
    this.listings.delete(this.keyOf(t, parentPath(t.path)));
    for (let dir = parentPath(t.path); dir !== ''; dir = parentPath(dir)) {
      this.createdFolders.delete(this.keyOf(t, dir));
    }
    await this.known.add(t.baseUrl, t.connector, t.path);
    this.fire(existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, t.uri);
  }

  private async forgetFile(t: Target): Promise<void> {
    this.contents.delete(t.key);
    this.versions.forget(t.key);
    this.listings.delete(this.keyOf(t, parentPath(t.path)));
    await this.known.remove(t.baseUrl, t.connector, t.path);
  }

  private forgetAll(): void {
    this.contents.clear();
    this.listings.clear();
  }

  private fire(type: vscode.FileChangeType, uri: vscode.Uri): void {
    this.changes.fire([{ type, uri }]);
  }
}

function directory(): vscode.FileStat {
  return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
}

function tooLargeMessage(t: ConnectorPath, size: number | undefined): string {
  const limitMb = maxEditorBytes() / (1024 * 1024);
  const actual = size === undefined ? 'larger than' : `${(size / (1024 * 1024)).toFixed(1)} MB, larger than`;
  return (
    `${displayPath(t)} is ${actual} ${limitMb} MB, the largest file opened in an editor ` +
    '(setting datagrok.files.maxEditorFileSizeMB). Download it to disk instead: "Datagrok: Download Connector File".'
  );
}
