// Folder sync, the pure part: each file's state from the last synced base, the local content hash and the
// server's ETag; then the actions a pull, push or sync would take. No I/O, no vscode.
import { nameProblem } from '../confinement';

/** The linked folder's ignore rules: the user's, so never replaced or sent without the user's choice. */
export const IGNORE_FILE = '.datagrokignore';

/** What the last sync left: the server's ETag and the content's sha256 and size, per relative path. */
export interface BaseEntry {
  etag: string;
  hash: string;
  size: number;
}

export type SyncState = 'same' | 'localChanged' | 'remoteChanged' | 'conflict' | 'localNew' | 'remoteNew' | 'localDeleted' | 'remoteDeleted';
export type SyncAction = 'download' | 'upload' | 'deleteLocal' | 'deleteRemote' | 'conflict' | 'skip';
export type Direction = 'pull' | 'push' | 'both';
export type OnConflict = 'ask' | 'keepBoth' | 'mine' | 'theirs';

/** The server's side of a file as the sync route told it. */
export interface RemoteEntry {
  etag: string;
  /** sha256 and size of the content when it came with the answer (new or changed since the base). */
  hash?: string;
  size?: number;
}

export interface FileStatus {
  path: string;
  state: SyncState;
  base?: BaseEntry;
  local?: { hash: string; size: number };
  remote?: RemoteEntry;
  /** Why it is a conflict, in words. */
  detail?: string;
  /** Other paths that differ from this one only in case, on a folder whose file system does not tell them apart. */
  caseTwins?: string[];
}

export interface PlannedAction {
  path: string;
  action: SyncAction;
  /** Bytes that would move (0 for deletes, conflicts and skips). */
  bytes: number;
  reason?: string;
  /** For a resolved conflict: how (keepBoth keeps the local copy under another name). */
  resolution?: Exclude<OnConflict, 'ask'>;
  status: FileStatus;
}

/**
 * A change to the ignore rules on either side is the user's to take: a run never replaces them, sends them or
 * deletes them on its own (what leaves the machine is decided by the rules as they were). Only a first copy
 * from the server, where the folder has none, comes down unasked.
 */
const RULES_CHANGE: Partial<Record<SyncState, string>> = {
  localChanged: 'your ignore rules changed here; they decide what leaves this machine, so they are sent only when you choose to take yours',
  localNew: 'your ignore rules are new here; they decide what leaves this machine, so they are sent only when you choose to take yours',
  localDeleted: 'your ignore rules were deleted here; the server copy is deleted only when you choose to take yours',
  remoteChanged:
    "the server's copy of the ignore rules changed; they decide what leaves this machine, so they replace yours only when you choose to take theirs (compare them first)",
  remoteDeleted: "the server's copy of the ignore rules was deleted; yours are kept unless you choose to take theirs",
};

export interface ClassifyOptions {
  /** The linked folder's file system does not tell `A.txt` from `a.txt` (macOS, Windows). */
  caseInsensitive?: boolean;
}

/** Compares base, local and remote for every path any of them knows. Paths the three agree are gone from drop out. */
export function classify(
  base: ReadonlyMap<string, BaseEntry>,
  local: ReadonlyMap<string, { hash: string; size: number }>,
  remote: ReadonlyMap<string, RemoteEntry>,
  options: ClassifyOptions = {},
): FileStatus[] {
  const paths = new Set([...base.keys(), ...local.keys(), ...remote.keys()]);
  const byCase = new Map<string, string[]>();
  if (options.caseInsensitive) {
    for (const p of paths) {
      if (!local.has(p) && !remote.has(p)) continue;
      const key = p.toLowerCase();
      byCase.set(key, [...(byCase.get(key) ?? []), p]);
    }
  }
  const out: FileStatus[] = [];
  for (const path of [...paths].sort()) {
    const b = base.get(path);
    const l = local.get(path);
    const r = remote.get(path);
    const s: FileStatus = { path, state: 'same', base: b, local: l, remote: r };
    if (!b) {
      if (l && r) {
        if (r.hash === l.hash) s.state = 'same';
        else [s.state, s.detail] = ['conflict', 'new on both sides, with different content'];
      } else if (l) s.state = 'localNew';
      else if (r) s.state = 'remoteNew';
      else continue;
    } else {
      const localChanged = l !== undefined && l.hash !== b.hash;
      const remoteChanged = r !== undefined && r.etag !== b.etag;
      if (!l && !r) continue; // deleted on both sides: nothing to do
      if (!l) {
        if (remoteChanged) [s.state, s.detail] = ['conflict', 'deleted here, changed on the server'];
        else s.state = 'localDeleted';
      } else if (!r) {
        if (localChanged) [s.state, s.detail] = ['conflict', 'changed here, deleted on the server'];
        else s.state = 'remoteDeleted';
      } else if (localChanged && remoteChanged) {
        if (r.hash !== undefined && r.hash === l.hash) s.state = 'same';
        else [s.state, s.detail] = ['conflict', 'changed here and on the server'];
      } else if (localChanged) s.state = 'localChanged';
      else if (remoteChanged && r.hash !== l.hash) s.state = 'remoteChanged';
    }
    const rulesChange = path.toLowerCase() === IGNORE_FILE ? RULES_CHANGE[s.state] : undefined;
    if (rulesChange) [s.state, s.detail] = ['conflict', rulesChange];
    const twins = byCase.get(path.toLowerCase())?.filter((p) => p !== path);
    if (twins?.length) s.caseTwins = twins;
    out.push(s);
  }
  return out;
}

export interface PlanOptions {
  direction: Direction;
  onConflict: OnConflict;
  /** Deletes are planned only when true; otherwise each is a skip that says so. */
  propagateDeletes: boolean;
}

const pulls = (d: Direction) => d !== 'push';
const pushes = (d: Direction) => d !== 'pull';

/** The actions of a run, in the order they are taken (a case-only rename's delete before its new name). */
export function plan(statuses: readonly FileStatus[], o: PlanOptions): PlannedAction[] {
  const out: PlannedAction[] = [];
  const act = (s: FileStatus, action: SyncAction, extra: Partial<PlannedAction> = {}) =>
    out.push({ path: s.path, action, bytes: action === 'download' ? (s.remote?.size ?? 0) : action === 'upload' ? (s.local?.size ?? 0) : 0, status: s, ...extra });
  const skip = (s: FileStatus, reason: string) => act(s, 'skip', { reason });
  for (const s of statuses) {
    switch (s.state) {
      case 'remoteChanged':
      case 'remoteNew':
        if (pulls(o.direction)) act(s, 'download');
        break;
      case 'localChanged':
      case 'localNew':
        if (pushes(o.direction)) act(s, 'upload');
        break;
      case 'remoteDeleted':
        if (!pulls(o.direction)) break;
        if (o.propagateDeletes) act(s, 'deleteLocal');
        else skip(s, 'deleted on the server; the local copy is kept until the delete is confirmed (propagateDeletes)');
        break;
      case 'localDeleted':
        if (!pushes(o.direction)) break;
        if (o.propagateDeletes) act(s, 'deleteRemote');
        else skip(s, 'deleted here; the server copy is kept until the delete is confirmed (propagateDeletes)');
        break;
      case 'conflict':
        resolve(s, o, act, skip);
        break;
    }
  }
  return guardLocalWrites(orderCaseRenames(out));
}

/**
 * What a server names is written here only under a name this system can hold: a hostile name (`..`, a name
 * longer than file systems take, a Windows device name on Windows) is a skip with its reason; a name that
 * differs only in case from another file (on a case-insensitive folder) is a conflict unless the other is
 * deleted first in the same run (a case-only rename), never an overwrite.
 */
function guardLocalWrites(actions: PlannedAction[]): PlannedAction[] {
  const deletedHere = new Set(actions.filter((a) => a.action === 'deleteLocal').map((a) => a.path));
  return actions.map((a) => {
    if (a.action !== 'download' && a.action !== 'deleteLocal') return a;
    const problem = nameProblem(a.path);
    if (problem) return { ...a, action: 'skip', bytes: 0, reason: `not written here: ${problem}` };
    const twins = a.action === 'download' ? a.status.caseTwins?.filter((t) => !deletedHere.has(t)) : undefined;
    if (twins?.length) {
      const reason = `differs only in case from ${twins.join(', ')}, and this folder's file system does not tell such names apart: writing it would overwrite the other. Rename one of them (on the server or here).`;
      return { ...a, action: 'conflict', bytes: 0, reason };
    }
    return a;
  });
}

function resolve(s: FileStatus, o: PlanOptions, act: (s: FileStatus, a: SyncAction, extra?: Partial<PlannedAction>) => void, skip: (s: FileStatus, reason: string) => void): void {
  const why = s.detail ?? 'changed on both sides';
  if (o.onConflict === 'ask') {
    act(s, 'conflict', { reason: why });
  } else if (o.onConflict === 'theirs' || o.onConflict === 'keepBoth') {
    const resolution = o.onConflict;
    if (!pulls(o.direction)) skip(s, `conflict (${why}): a push does not write here; pull or sync to take the server's copy`);
    else if (s.remote) act(s, 'download', { resolution: s.local ? resolution : 'theirs', reason: why });
    else if (resolution === 'keepBoth') skip(s, `conflict (${why}): the local copy is kept; it is new on the next push`);
    else if (!o.propagateDeletes) skip(s, `conflict (${why}): taking the server's side deletes the local copy; confirm the delete (propagateDeletes)`);
    else act(s, 'deleteLocal', { resolution, reason: why });
  } else if (!pushes(o.direction)) {
    skip(s, `conflict (${why}): a pull does not write to the server; push or sync to send your copy`);
  } else if (s.local) {
    act(s, 'upload', { resolution: 'mine', reason: why });
  } else if (!o.propagateDeletes) {
    skip(s, `conflict (${why}): taking your side deletes the server copy; confirm the delete (propagateDeletes)`);
  } else {
    act(s, 'deleteRemote', { resolution: 'mine', reason: why });
  }
}

/**
 * A case-only rename (`Data.csv` → `data.csv`) is a delete and a new file whose names differ only in case.
 * On a case-insensitive store writing the new name first would overwrite the old file and the delete
 * would then remove it: the delete goes first, and without a confirmed delete the new name waits.
 */
function orderCaseRenames(actions: PlannedAction[]): PlannedAction[] {
  const skippedDeletes = new Map<string, PlannedAction>();
  for (const a of actions) {
    if (a.action === 'skip' && (a.status.state === 'localDeleted' || a.status.state === 'remoteDeleted')) skippedDeletes.set(a.path.toLowerCase(), a);
  }
  const deletes: PlannedAction[] = [];
  const rest: PlannedAction[] = [];
  for (const a of actions) {
    const pending = skippedDeletes.get(a.path.toLowerCase());
    if ((a.action === 'upload' || a.action === 'download') && pending && pending.path !== a.path) {
      rest.push({ ...a, action: 'skip', bytes: 0, reason: `a case-only rename of ${pending.path}: it is written once that delete is confirmed (propagateDeletes)` });
    } else if (a.action === 'deleteLocal' || a.action === 'deleteRemote') deletes.push(a);
    else rest.push(a);
  }
  return [...deletes, ...rest];
}

/** Totals of a plan for the preview and the threshold check. */
export function totals(actions: readonly PlannedAction[]): { files: number; bytes: number; largest?: PlannedAction } {
  let bytes = 0;
  let files = 0;
  let largest: PlannedAction | undefined;
  for (const a of actions) {
    if (a.action !== 'upload') continue;
    files++;
    bytes += a.bytes;
    if (!largest || a.bytes > largest.bytes) largest = a;
  }
  return { files, bytes, largest };
}

/**
 * What the user confirmed in a preview: the actions whose paths are in `confirmed` stay, the others become
 * skips (a delete not confirmed is not propagated), and a case-only rename's new name waits for its delete.
 */
export function keepConfirmed(actions: readonly PlannedAction[], confirmed: ReadonlySet<string>): PlannedAction[] {
  const out = actions.map((a) =>
    confirmed.has(a.path) || a.action === 'skip' ? a : { ...a, action: 'skip' as const, bytes: 0, reason: a.action === 'conflict' ? a.reason : 'not confirmed in the preview' },
  );
  const unconfirmedDeletes = new Map(
    actions.filter((a) => (a.action === 'deleteLocal' || a.action === 'deleteRemote') && !confirmed.has(a.path)).map((a) => [a.path.toLowerCase(), a.path]),
  );
  return out.map((a) => {
    const pending = unconfirmedDeletes.get(a.path.toLowerCase());
    if ((a.action === 'upload' || a.action === 'download') && pending && pending !== a.path) {
      return { ...a, action: 'skip' as const, bytes: 0, reason: `a case-only rename of ${pending}: it is written once that delete is confirmed` };
    }
    return a;
  });
}
