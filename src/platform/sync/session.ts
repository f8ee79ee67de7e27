// Folder sync, one comparison and the run that follows it: the link, the base, the ignore rules, the local
// scan and the server's answer, classified (plan.ts); then the confirmed actions taken one file at a
// time, each recorded in the base as soon as it is done, so a cancelled run resumes where it stopped.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { DatagrokError } from '../../api/errors';
import type { DatagrokApi } from '../../api/datagrokApi';
import { writeTarget } from '../confinement';
import { type IgnoreRules, isCaseInsensitive, type LocalFile, loadIgnoreRules, localNow, scanLocal } from './local';
import { classify, type Direction, type FileStatus, type OnConflict, type PlannedAction, plan, type SyncAction } from './plan';
import { etagNow, fetchRemote, INCOMING_DIR, RemoteEtags, type RemoteView, UploadChecks } from './remote';
import { keepLocalCopy, placeStaged } from './localWrites';
import { type HashCache, loadHashes, readLink, STATE_DIR, SyncBase, type SyncLink, saveHashes } from './store';

export interface SyncSession {
  folder: string;
  link: SyncLink;
  base: SyncBase;
  rules: IgnoreRules;
  hashes: HashCache;
  local: Map<string, LocalFile>;
  remote: RemoteView;
  statuses: FileStatus[];
}

export interface ActionResult {
  path: string;
  action: SyncAction;
  bytes: number;
  reason?: string;
}

/** Compares the linked folder with the server. Rejects when the folder is not linked. */
export async function openSession(api: DatagrokApi, folder: string, signal?: AbortSignal): Promise<SyncSession> {
  try {
    return await compare(api, folder, signal);
  } catch (err) {
    throw asCancelled(err);
  }
}

async function compare(api: DatagrokApi, folder: string, signal?: AbortSignal): Promise<SyncSession> {
  const link = await readLink(folder);
  if (!link) throw new Error(`${folder} is not linked to a connector folder. Link it first (Datagrok: Link Folder to Connector Folder).`);
  const base = await SyncBase.load(folder);
  const rules = await loadIgnoreRules(folder);
  const tracked = new Map([...base.entries].filter(([p]) => !rules.ignores(p)));
  // The server's answer and the local scan at the same time: one request, while the disk is read.
  const both = new AbortController();
  const abort = () => both.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  const scanning = loadHashes(folder).then(async (hashes) => {
    const local = await scanLocal(folder, rules, hashes, both.signal);
    await saveHashes(folder, hashes);
    return { hashes, local };
  });
  const asking = fetchRemote(api, folder, link, tracked, base.ignoredRemote, rules, both.signal);
  let settled: [Awaited<typeof scanning>, RemoteView];
  try {
    settled = await Promise.all([scanning, asking]);
  } catch (err) {
    both.abort(err);
    await Promise.allSettled([scanning, asking]);
    await base.close();
    throw err;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
  const [{ hashes, local }, remote] = settled;
  const statuses = classify(tracked, local, remote.files, { caseInsensitive: await isCaseInsensitive(folder) });
  return { folder, link, base, rules, hashes, local, remote, statuses };
}

function remotePath(link: SyncLink, rel: string): string {
  const dir = link.path.replace(/^\/+|\/+$/g, '');
  return dir ? `${dir}/${rel}` : rel;
}

function sameLocal(a: LocalFile | undefined, b: { hash: string } | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && a.hash === b.hash;
}

/** Transfers at once (each on a kept-alive connection of its own): enough to hide each request's round trip. */
const PARALLEL = 8;

export interface RunHooks {
  signal?: AbortSignal;
  /** Before each file: its index (from 0), how many there are, and the action. */
  onFile?: (index: number, total: number, action: PlannedAction) => void;
}

/** Takes `actions` (from plan()) in order; returns what was done. The base is saved whatever happens. */
export async function execute(api: DatagrokApi, s: SyncSession, actions: readonly PlannedAction[], hooks: RunHooks = {}): Promise<ActionResult[]> {
  const results: ActionResult[] = [];
  const remoteEtags = new RemoteEtags([...[...s.remote.files].map(([p, r]) => [p, r.etag] as [string, string]), ...s.remote.ignored]);
  try {
    s.base.ignoredRemote.clear();
    for (const [p, etag] of s.remote.ignored) s.base.ignoredRemote.set(p, etag);
    // Files both sides agree on (made the same on both, or gone from both): only the base moves.
    // (Recorded together: the journal takes them in one write.)
    const agreed: Promise<void>[] = [];
    for (const st of s.statuses) {
      if (st.state === 'same' && st.remote && st.local && (st.base?.etag !== st.remote.etag || st.base.hash !== st.local.hash)) {
        agreed.push(s.base.record(st.path, { etag: st.remote.etag, hash: st.local.hash, size: st.local.size }));
      }
    }
    for (const p of [...s.base.entries.keys()]) if (!s.local.has(p) && !s.remote.files.has(p) && !s.rules.ignores(p)) agreed.push(s.base.record(p, undefined));
    await Promise.all(agreed);

    const ctx: RunContext = { remoteEtags, learnt: {}, checks: new UploadChecks(api, s.link, remoteEtags, actions, hooks.signal), signal: hooks.signal };
    // Deletes first, one at a time (a case-only rename's delete before its new name is written); then the
    // transfers, a few at a time.
    let next = 0;
    const worker = async (until: number) => {
      while (next < until) {
        if (hooks.signal?.aborted) throw cancelled();
        const i = next++;
        hooks.onFile?.(i, actions.length, actions[i]);
        results[i] = await one(api, s, actions[i], i, ctx).catch((err: unknown) => {
          throw asCancelled(err);
        });
      }
    };
    const deletes = actions.findIndex((a) => a.action !== 'deleteLocal' && a.action !== 'deleteRemote');
    await worker(deletes < 0 ? actions.length : deletes);
    const failures: unknown[] = [];
    await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        worker(actions.length).catch((err: unknown) => {
          failures.push(err);
          next = actions.length; // the other workers stop after their current file
        }),
      ),
    );
    if (failures.length > 0) throw failures[0];
  } finally {
    await s.base.save();
    await saveHashes(s.folder, s.hashes);
    await fsp.rm(path.join(s.folder, STATE_DIR, INCOMING_DIR), { recursive: true, force: true });
  }
  return results;
}

/** A cancelled run says what it left: every finished file is recorded, the next run continues from there. */
function cancelled(): DatagrokError {
  return new DatagrokError('cancelled', 'The sync was cancelled. Every file it finished is recorded; no file was left half-written, and the next sync continues from there.');
}

function asCancelled(err: unknown): unknown {
  return err instanceof Error && err.name === 'AbortError' ? cancelled() : err;
}

interface RunContext {
  remoteEtags: RemoteEtags;
  /** Whether the server's ETag is the content's sha256: asked after the first upload, the others wait for it. */
  learnt: { etagIsSha256?: Promise<boolean> };
  checks: UploadChecks;
  signal?: AbortSignal;
}

async function one(api: DatagrokApi, s: SyncSession, a: PlannedAction, index: number, ctx: RunContext): Promise<ActionResult> {
  const { remoteEtags, learnt, signal } = ctx;
  const st = a.status;
  let full = path.join(s.folder, ...a.path.split('/'));
  const conflict = (reason: string): ActionResult => ({ path: a.path, action: 'conflict', bytes: 0, reason });
  if (a.action === 'skip' || a.action === 'conflict') return { path: a.path, action: a.action, bytes: 0, reason: a.reason };

  if (a.action === 'download' || a.action === 'deleteLocal') {
    // Written or deleted only inside the linked folder, on its real path: a link out is a skip, never a door.
    const target = await writeTarget(s.folder, a.path, { create: a.action === 'download' });
    if (target.reason !== undefined) return { path: a.path, action: 'skip', bytes: 0, reason: `not written here: ${target.reason}` };
    full = target.full;
    const now = await localNow(s.folder, a.path, s.hashes);
    if (!sameLocal(now, st.local)) return conflict('changed here since the preview; compare again');
    if (a.action === 'deleteLocal') {
      await fsp.rm(full, { force: true });
      await s.base.record(a.path, undefined);
      s.hashes.entries.delete(a.path);
      s.hashes.dirty = true;
      return { path: a.path, action: 'deleteLocal', bytes: 0 };
    }
    const r = s.remote.files.get(a.path);
    if (!r) return conflict('the server no longer has it; compare again');
    let reason: string | undefined;
    if (a.resolution === 'keepBoth' && now) {
      const copy = await keepLocalCopy(s.folder, a.path);
      reason = `your copy is kept as ${copy}`;
    }
    let bytes: number;
    let hash: string;
    if (r.staged && r.hash !== undefined && (await placeStaged(r.staged, r.size, full, now !== undefined))) {
      bytes = r.size ?? 0;
      hash = r.hash;
    } else {
      bytes = (await api.downloadFile(s.link.connector, remotePath(s.link, a.path), { file: full }, { signal })).bytes;
      hash = (await localNow(s.folder, a.path))?.hash ?? '';
    }
    const info = await fsp.stat(full);
    // Written by us, now: its hash is known (no need to read it again on the next comparison).
    s.hashes.entries.set(a.path, [info.size, info.mtimeMs, hash, info.mtimeMs + 60_000]);
    s.hashes.dirty = true;
    await s.base.record(a.path, { etag: r.etag, hash, size: info.size });
    return { path: a.path, action: 'download', bytes, ...(reason ? { reason } : {}) };
  }

  // upload or deleteRemote: the server copy must still be the one the preview showed.
  const before = a.action === 'upload' ? await ctx.checks.before(index, a.path) : await etagNow(api, s.link, a.path, remoteEtags, st.remote?.etag, signal);
  if (before !== st.remote?.etag) {
    return conflict(before === undefined ? 'deleted on the server since the preview' : 'changed on the server since the preview; it was not overwritten');
  }
  if (a.action === 'deleteRemote') {
    if (await localNow(s.folder, a.path, s.hashes)) return conflict('created here again since the preview');
    await api.deleteFile(s.link.connector, remotePath(s.link, a.path), { signal });
    remoteEtags.delete(a.path);
    await s.base.record(a.path, undefined);
    return { path: a.path, action: 'deleteRemote', bytes: 0 };
  }
  const now = await localNow(s.folder, a.path, s.hashes);
  if (!now) return conflict('deleted here since the preview');
  await api.uploadFile(s.link.connector, remotePath(s.link, a.path), { file: full }, { signal });
  // The new ETag: asked once; a server whose ETag is the content's sha256 is not asked again in this run (were
  // that wrong for a file, the next comparison would only see it as changed on the server, with this content).
  let etag = now.hash;
  let asked: Promise<string | undefined> | undefined;
  if (!learnt.etagIsSha256) {
    asked = etagNow(api, s.link, a.path, remoteEtags, now.hash, signal);
    learnt.etagIsSha256 = asked.then((e) => e === now.hash).catch(() => false);
  } else if (!(await learnt.etagIsSha256)) {
    asked = etagNow(api, s.link, a.path, remoteEtags, now.hash, signal);
  }
  if (asked) etag = (await asked) ?? now.hash;
  remoteEtags.set(a.path, etag);
  await s.base.record(a.path, { etag, hash: now.hash, size: now.size });
  return { path: a.path, action: 'upload', bytes: now.size };
}

export interface RunOptions {
  direction: Direction;
  onConflict?: OnConflict;
  propagateDeletes?: boolean;
  dryRun?: boolean;
}

/** A whole run without questions (scripts, tests, the benchmark): compare, plan, and unless dryRun, act. */
export async function runSync(api: DatagrokApi, folder: string, o: RunOptions, hooks: RunHooks = {}): Promise<ActionResult[]> {
  const s = await openSession(api, folder, hooks.signal);
  const actions = plan(s.statuses, { direction: o.direction, onConflict: o.onConflict ?? 'ask', propagateDeletes: o.propagateDeletes === true });
  if (o.dryRun) {
    await s.base.close();
    return actions.map((a) => ({ path: a.path, action: a.action, bytes: a.bytes, ...(a.reason ? { reason: a.reason } : {}) }));
  }
  return execute(api, s, actions, hooks);
}
