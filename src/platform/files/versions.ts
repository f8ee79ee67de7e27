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
  /** The server's clock (Date header) when that content was read or written here. */
  serverTime?: number;
  /**
   * The server changed the file after it was read here, keeping its size: VS Code's own save check
   * compares sizes and cannot see such a change, so a save must be refused until the file is read again.
   */
  sameSizeChange?: boolean;
}

/** Date headers carry whole seconds: a change less than this after our read or write may be ours. */
const DATE_RESOLUTION_MS = 1000;

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

  /**
   * Whether only the content can tell if the file changed since it was read or written here: no listing
   * time stands for that content, and the server gave no clock to compare a listing with.
   */
  needsContentCheck(key: string): boolean {
    const v = this.versions.get(key);
    return v?.hash !== undefined && v.updatedOn === undefined && v.serverTime === undefined;
  }

  /**
   * The content was read from the server (at `serverTime`, its clock, when known): the same content
   * keeps its mtime, another one moves it forward.
   */
  observeContent(key: string, hash: string, size: number, serverTime?: number): number {
    const v = this.versions.get(key);
    if (!v) {
      const mtime = Date.now();
      this.versions.set(key, { mtime, hash, size, serverTime });
      return mtime;
    }
    if (v.hash === undefined) {
      // first read after a listing: the listing's time stands for this content
      v.hash = hash;
      v.size = size;
      v.serverTime = serverTime;
    } else if (v.hash !== hash) {
      this.versions.set(key, { mtime: Math.max(Date.now(), v.mtime + 1), hash, size, serverTime, sameSizeChange: v.size === size });
    } else if (serverTime !== undefined && v.updatedOn === undefined) {
      v.serverTime = Math.max(v.serverTime ?? 0, serverTime);
    }
    return this.versions.get(key)!.mtime;
  }

  /** This extension wrote that content (the server's clock said `serverTime`): a new version, newer than any seen. */
  observeWrite(key: string, hash: string, size: number, serverTime?: number): number {
    const v = this.versions.get(key);
    const mtime = Math.max(Date.now(), (v?.mtime ?? 0) + 1);
    this.versions.set(key, { mtime, hash, size, serverTime });
    return mtime;
  }

  /**
   * A listing reported the file: the server's time when it changed, otherwise the known mtime. Never
   * from size alone: a same-size change is seen from `updatedOn`, against the time this content was
   * last listed, or against the server's clock when it was read or written here.
   */
  observeListing(key: string, updatedOn: string | undefined, size?: number): number {
    const v = this.versions.get(key);
    const changedOn = updatedOn === undefined ? Number.NaN : Date.parse(updatedOn);
    if (!v) {
      const mtime = Number.isNaN(changedOn) ? Date.now() : changedOn;
      this.versions.set(key, { mtime, updatedOn });
      return mtime;
    }
    // A size other than that of the content read or written here is another version, whatever the times say.
    const sizeChanged = size !== undefined && v.size !== undefined && size !== v.size;
    if (!sizeChanged) {
      if (Number.isNaN(changedOn) || v.updatedOn === updatedOn) return v.mtime;
      if (v.updatedOn === undefined) {
        // Read or written here, not listed since. The server's clock at that read or write (whole
        // seconds) says whether this time is that version's or a later change.
        const ours = v.hash === undefined || (v.serverTime !== undefined && changedOn < v.serverTime + DATE_RESOLUTION_MS);
        if (ours) {
          v.updatedOn = updatedOn;
          return v.mtime;
        }
        if (v.serverTime === undefined) return v.mtime; // cannot tell: needsContentCheck() says so
      }
    }
    // Changed on the server since the last listing, read or write.
    const changedAt = Number.isNaN(changedOn) ? Date.now() : changedOn;
    const sameSizeChange = v.hash !== undefined && (size === undefined || size === v.size);
    this.versions.set(key, { mtime: Math.max(changedAt, v.mtime + 1), updatedOn, sameSizeChange });
    return this.versions.get(key)!.mtime;
  }

  /** A change on the server, since this file was read here, that VS Code's save check cannot see (same size). */
  changedUnseen(key: string): boolean {
    return this.versions.get(key)?.sameSizeChange === true;
  }

  /** The editor read the current content: a save from it is a save over what it showed. */
  markRead(key: string): void {
    const v = this.versions.get(key);
    if (v) v.sameSizeChange = undefined;
  }

  forget(key: string): void {
    this.versions.delete(key);
  }
}
