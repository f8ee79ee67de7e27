// Stable modification times for connector files. VS Code compares a file's mtime before a save with
// the one it read, and reports "the file is newer on disk" when it grew: so an mtime must only move
// when the content really changed. The server's time (listing `updatedOn`) is used when it gives one;
// otherwise the time this extension first saw that content (a sha256 per file tells contents apart).
import { createHash } from 'node:crypto';

interface Version {
  mtime: number;
  /** sha256 of the content last seen, when it was read or written here. */
  hash?: string;
  /** The server's `updatedOn` last seen, when a listing gave one. */
  updatedOn?: string;
  /** Size in bytes of the content last read or written here. */
  size?: number;
}

export function contentHash(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export class FileVersions {
  private readonly versions = new Map<string, Version>();

  peek(key: string): number | undefined {
    return this.versions.get(key)?.mtime;
  }

  /** Whether this file's content was read or written here (not only seen in a listing). */
  hasContent(key: string): boolean {
    return this.versions.get(key)?.hash !== undefined;
  }

  /** The content was read from the server: same content keeps its mtime, a new one moves it forward. */
  observeContent(key: string, hash: string, size: number): number {
    const v = this.versions.get(key);
    if (!v) {
      const mtime = Date.now();
      this.versions.set(key, { mtime, hash, size });
      return mtime;
    }
    if (v.hash === undefined) {
      // first read after a listing: the listing's time stands for this content
      v.hash = hash;
      v.size = size;
    } else if (v.hash !== hash) {
      this.versions.set(key, { mtime: Math.max(Date.now(), v.mtime + 1), hash, size });
    }
    return this.versions.get(key)!.mtime;
  }

  /** This extension wrote that content: a new version, newer than any seen. */
  observeWrite(key: string, hash: string, size: number): number {
    const v = this.versions.get(key);
    const mtime = Math.max(Date.now(), (v?.mtime ?? 0) + 1);
    this.versions.set(key, { mtime, hash, size });
    return mtime;
  }

  /** A listing reported the file: the server's time when it changed, otherwise the known mtime. */
  observeListing(key: string, updatedOn: string | undefined, size?: number): number {
    const v = this.versions.get(key);
    const serverTime = updatedOn === undefined ? Number.NaN : Date.parse(updatedOn);
    if (!v) {
      const mtime = Number.isNaN(serverTime) ? Date.now() : serverTime;
      this.versions.set(key, { mtime, updatedOn });
      return mtime;
    }
    // A size other than that of the content read or written here is another version, whatever the
    // times say (a save's stat may come from a listing, not a download: see ConnectorFileSystem.stat).
    const sizeChanged = size !== undefined && v.size !== undefined && size !== v.size;
    if (!sizeChanged) {
      if (updatedOn === undefined || Number.isNaN(serverTime) || v.updatedOn === updatedOn) return v.mtime;
      if (v.updatedOn === undefined) {
        // Our own write or read, not yet listed: this is the server's time of that same version.
        v.updatedOn = updatedOn;
        return v.mtime;
      }
    }
    // Changed on the server since the last listing, read or write.
    const changedAt = Number.isNaN(serverTime) ? Date.now() : serverTime;
    this.versions.set(key, { mtime: Math.max(changedAt, v.mtime + 1), updatedOn });
    return this.versions.get(key)!.mtime;
  }

  forget(key: string): void {
    this.versions.delete(key);
  }
}
