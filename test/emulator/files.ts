// Connector files, stored on disk under <dataDir>/files/<connector>/<path>.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';
import type { FileEntry } from '../../src/api/types';
import { ApiError, isUuid, platformName } from './http';
import { hashFile, receiveToFile, type Stored, sendFile } from './streams';

export interface Connector {
  id: string;
  /** Platform name, e.g. System:DemoFiles */
  name: string;
  /** What the connection holds (connections list). */
  description?: string;
  tags?: string[];
}

export interface FileState extends Stored {
  connector: string;
  path: string;
}

export class ConnectorFiles {
  connectors: Connector[] = [];
  /** sha256 by absolute file path, valid while size and mtime match. */
  private readonly digests = new Map<string, Stored & { mtimeMs: number }>();

  constructor(
    readonly dataDir: string,
    /** Whether paths match whatever their case (config caseInsensitivePaths). */
    private readonly caseInsensitive: () => boolean = () => false,
  ) {}

  get root(): string {
    return path.join(this.dataDir, 'files');
  }

  get tmpDir(): string {
    return path.join(this.dataDir, '.tmp');
  }

  async wipe(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.root, { recursive: true });
    this.digests.clear();
    for (const c of this.connectors) await mkdir(this.dirOf(c), { recursive: true });
  }

  /** A connector by platform name, REST name (`.` for `:`) or id; unknown → 404 ApiError. */
  connector(idOrName: string): Connector {
    const wanted = isUuid(idOrName) ? idOrName.toLowerCase() : platformName(idOrName).toLowerCase();
    const c = this.connectors.find((x) => x.id === wanted || x.name.toLowerCase() === wanted);
    if (!c) throw new ApiError(404, `Connector ${platformName(idOrName)} not found`);
    return c;
  }

  private dirOf(c: Connector): string {
    return path.join(this.root, encodeURIComponent(c.name));
  }

  /** Absolute path of a file; rejects `..`, `.`, empty and separator-bearing segments with 400. */
  resolve(c: Connector, segments: string[], isFile = true): string {
    if (isFile && segments.length === 0) throw new ApiError(400, 'A file path is required after the connector');
    for (const s of segments) {
      if (s === '' || s === '.' || s === '..' || /[\\/\0]/.test(s)) {
        throw new ApiError(400, `Invalid file path "${segments.join('/')}": empty, "." or ".." segments are not allowed`);
      }
    }
    if (!this.caseInsensitive()) return path.join(this.dirOf(c), ...segments);
    // A case-insensitive store: each segment names the entry already there whatever its case.
    let at = this.dirOf(c);
    for (const s of segments) {
      const names = existsSync(at) ? readdirSync(at) : [];
      at = path.join(at, names.find((n) => n.toLowerCase() === s.toLowerCase()) ?? s);
    }
    return at;
  }

  async download(res: ServerResponse, c: Connector, segments: string[], chunked = false): Promise<void> {
    const file = this.resolve(c, segments);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new ApiError(404, `File ${c.name}/${segments.join('/')} not found`);
    await sendFile(res, file, 'application/octet-stream', chunked);
  }

  async upload(req: IncomingMessage, c: Connector, segments: string[]): Promise<void> {
    const file = this.resolve(c, segments);
    const existing = await stat(file).catch(() => undefined);
    if (existing?.isDirectory()) throw new ApiError(400, `${c.name}/${segments.join('/')} is a folder`);
    const stored = await receiveToFile(req, this.tmpDir, file, async () => {
      try {
        await mkdir(path.dirname(file), { recursive: true });
      } catch {
        throw new ApiError(400, `Cannot create ${c.name}/${segments.join('/')}: a parent is a file`);
      }
    });
    await this.remember(file, stored);
  }

  /** Seeding: writes a whole file from memory. */
  async write(c: Connector, relPath: string, content: string | Buffer): Promise<void> {
    const file = this.resolve(c, relPath.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }

  async remove(c: Connector, segments: string[]): Promise<void> {
    const file = this.resolve(c, segments);
    if (!(await stat(file).catch(() => undefined))) {
      throw new ApiError(404, `File ${c.name}/${segments.join('/')} not found`);
    }
    await rm(file, { recursive: true, force: true });
  }

  async list(c: Connector, segments: string[], recursive: boolean): Promise<FileEntry[]> {
    const dir = this.resolve(c, segments, false);
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new ApiError(404, `Folder ${c.name}/${segments.join('/')} not found`);
    const entries: FileEntry[] = [];
    await this.walk(dir, segments.join('/'), recursive, entries);
    return entries;
  }

  private async walk(dir: string, rel: string, recursive: boolean, out: FileEntry[]): Promise<void> {
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      const full = path.join(dir, name);
      const info = await stat(full).catch(() => undefined);
      if (!info) continue;
      const entryPath = rel ? `${rel}/${name}` : name;
      const entry: FileEntry = { path: entryPath, name, isFile: info.isFile(), updatedOn: info.mtime.toISOString() };
      if (info.isFile()) entry.size = info.size;
      out.push(entry);
      if (recursive && info.isDirectory()) await this.walk(full, entryPath, true, out);
    }
  }

  private async remember(file: string, stored: Stored): Promise<void> {
    const info = await stat(file);
    this.digests.set(file, { ...stored, mtimeMs: info.mtimeMs });
  }

  /** A file's size and sha256, hashed once while its size and mtime stay the same (the sync route's ETag). */
  async digest(file: string): Promise<Stored> {
    const info = await stat(file);
    let known = this.digests.get(file);
    if (!known || known.mtimeMs !== info.mtimeMs || known.bytes !== info.size) {
      known = { ...(await hashFile(file)), mtimeMs: info.mtimeMs };
      this.digests.set(file, known);
    }
    return known;
  }

  /** Every stored file with its size and sha256 (computed while uploading, or now, streamed). */
  async snapshot(): Promise<FileState[]> {
    const out: FileState[] = [];
    for (const c of this.connectors) {
      const dir = this.dirOf(c);
      const entries = await this.list(c, [], true).catch(() => [] as FileEntry[]);
      for (const e of entries.filter((x) => x.isFile)) {
        const file = path.join(dir, ...e.path.split('/'));
        const info = await stat(file);
        let known = this.digests.get(file);
        if (!known || known.mtimeMs !== info.mtimeMs || known.bytes !== info.size) {
          known = { ...(await hashFile(file)), mtimeMs: info.mtimeMs };
          this.digests.set(file, known);
        }
        out.push({ connector: c.name, path: e.path, bytes: known.bytes, sha256: known.sha256 });
      }
    }
    return out;
  }
}
