// What the connector file system knows between requests: file contents read or written a moment ago,
// folder listings, file versions (VS Code's conflict check), folders seen or created here, and the
// files known to this workspace. It fires no editor events: the provider (connectorFileSystem.ts)
// announces changes.
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { FileEntry } from '../api/types';
import type { DatagrokApi } from '../api/datagrokApi';
import { maxEditorBytes } from '../core/limits';
import { contentHash, FileVersions } from '../platform/files/versions';
import type { KnownFiles } from '../platform/files/known';
import { RecentResults } from '../platform/recentResults';
import { toRestName } from '../api/names';
import { baseName, type ConnectorPath, displayPath, parentPath, platformName } from './connectorPaths';

/** A file's content as last downloaded, or why it was not (too large for an editor). */
export type Content = { data: Uint8Array; hash: string; serverTime?: number } | { tooLarge: true };

/** A file or folder of a connector, resolved to its server and client. */
export interface Target extends ConnectorPath {
  readonly uri: vscode.Uri;
  readonly baseUrl: string;
  readonly client: DatagrokApi;
  /** Identifies the file or folder across servers and connectors. */
  readonly key: string;
}

const CONTENT_TTL_MS = 5000;
const LISTING_TTL_MS = 3000;

export class FileCache {
  readonly contents = new RecentResults<Content>(CONTENT_TTL_MS);
  readonly listings = new RecentResults<FileEntry[]>(LISTING_TTL_MS);
  readonly versions = new FileVersions();
  /** Folders a listing showed. */
  readonly seenFolders = new Set<string>();
  /** Folders created here: they exist on the server only once a file is saved in them. */
  readonly createdFolders = new Set<string>();

  /** The first spelling of each connector used in this window, by server: `System.DemoFiles`. */
  private readonly spellings = new Map<string, string>();

  constructor(readonly known: KnownFiles) {}

  /**
   * One spelling per connector: the server resolves `system.demofiles` and `System.DemoFiles` to the
   * same files, while VS Code takes them for two, and would delete "the other" file before a rename
   * onto it. A second spelling of a connector already used here is refused, before any request.
   */
  checkSpelling(baseUrl: string, file: ConnectorPath): void {
    const key = `${baseUrl}|${toRestName(file.connector).toLowerCase()}`;
    const first = this.spellings.get(key);
    if (first === undefined) this.spellings.set(key, file.connector);
    else if (first !== file.connector) {
      throw vscode.FileSystemError.FileNotFound(
        `${displayPath(file)} names the connector ${platformName(first)} written differently: use ${displayPath({ connector: first, path: file.path })}, as this window already does.`,
      );
    }
  }

  /** Whether a listing of the file's folder (recent, or asked for when this name differs only in case from a known file) shows only another case of its name. */
  async onlyOtherCaseListed(t: Target): Promise<boolean> {
    const name = baseName(t.path);
    const dir = parentPath(t.path);
    const lower = t.path.toLowerCase();
    let entries = this.listings.peek(this.keyOf(t, dir));
    if (!entries && this.known.list(t.baseUrl, t.connector).some((p) => p !== t.path && p.toLowerCase() === lower)) {
      entries = await this.list(t, dir, true).catch(() => undefined);
    }
    if (!entries || entries.some((e) => e.name === name)) return false;
    return entries.some((e) => e.name.toLowerCase() === name.toLowerCase());
  }

  keyOf(t: Target, path: string): string {
    return `${t.baseUrl}|${t.connector}|${path}`;
  }

  /** Known to be a folder without asking the server: the root, a folder listed, created or holding known files. */
  isFolder(t: Target): boolean {
    return t.path === '' || this.seenFolders.has(t.key) || this.createdFolders.has(t.key) || this.known.isFolder(t.baseUrl, t.connector, t.path);
  }

  async content(t: Target): Promise<Content> {
    const loaded = await this.contents.get(t.key, async () => {
      try {
        let serverTime: number | undefined;
        const data = await t.client.readFile(t.connector, t.path, { maxBytes: maxEditorBytes(), onServerTime: (ms) => (serverTime = ms) });
        return { data, hash: contentHash(data), serverTime };
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

  fileStat(t: Target, content: Content): vscode.FileStat {
    if ('tooLarge' in content) {
      const listed = this.listedEntry(t);
      const mtime = this.versions.peek(t.key) ?? this.versions.observeListing(t.key, listed?.updatedOn, listed?.size);
      return { type: vscode.FileType.File, ctime: 0, mtime, size: listed?.size ?? 0 };
    }
    const mtime = this.versions.observeContent(t.key, content.hash, content.data.byteLength, content.serverTime);
    return { type: vscode.FileType.File, ctime: 0, mtime, size: content.data.byteLength };
  }

  listedStat(t: Target, entry: FileEntry): vscode.FileStat {
    const mtime = this.versions.observeListing(t.key, entry.updatedOn, entry.size);
    return { type: vscode.FileType.File, ctime: 0, mtime, size: entry.size ?? 0 };
  }

  /** The file's entry in a recent listing of its folder, without a request. */
  listedEntry(t: Target): FileEntry | undefined {
    const name = baseName(t.path);
    return this.listings.peek(this.keyOf(t, parentPath(t.path)))?.find((e) => e.name === name);
  }

  list(t: Target, dir: string, fresh = false): Promise<FileEntry[]> {
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
  async listedEntryFetched(t: Target): Promise<FileEntry | undefined> {
    try {
      const name = baseName(t.path);
      return (await this.list(t, parentPath(t.path), true)).find((e) => e.name === name);
    } catch {
      return undefined;
    }
  }

  /** The file's size from a listing of its folder (undefined when the server cannot list). */
  async listedSize(t: Target): Promise<number | undefined> {
    try {
      const name = baseName(t.path);
      return (await this.list(t, parentPath(t.path))).find((e) => e.name === name && e.isFile)?.size;
    } catch {
      return undefined;
    }
  }

  /** Whether the server lists that path as a folder (false when it cannot list). */
  async isServerFolder(t: Target): Promise<boolean> {
    try {
      const name = baseName(t.path);
      return (await this.list(t, parentPath(t.path))).some((e) => e.name === name && !e.isFile);
    } catch {
      return false;
    }
  }

  async forgetFile(t: Target): Promise<void> {
    this.contents.delete(t.key);
    this.versions.forget(t.key);
    this.listings.delete(this.keyOf(t, parentPath(t.path)));
    await this.known.remove(t.baseUrl, t.connector, t.path);
  }

  forgetAll(): void {
    this.contents.clear();
    this.listings.clear();
  }

  /** A file was written (saved, uploaded, renamed to): its folder's listing is stale, its folders exist now. */
  async recordWrite(t: Target): Promise<void> {
    this.listings.delete(this.keyOf(t, parentPath(t.path)));
    for (let dir = parentPath(t.path); dir !== ''; dir = parentPath(dir)) {
      this.createdFolders.delete(this.keyOf(t, dir));
    }
    await this.known.add(t.baseUrl, t.connector, t.path);
  }
}
