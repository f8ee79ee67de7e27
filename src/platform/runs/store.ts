// Function runs remembered per server, newest first, across restarts: the records in the global state
// (bounded: `maxRuns` per server, small inputs and results inline), anything larger in files of the
// extension's global storage (`BlobStore`), removed with its run. A Model: no vscode, shows nothing.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Emitter } from '../events';
import type { ScriptSource } from '../scripts/runs';
import type { KeyValueStore } from '../session';

export type RunOutcome = 'ok' | 'failed' | 'cancelled';

/** A value kept inline (JSON text) or in a file; `dropped` says why it was not kept. */
export type Stash = { inline: string } | { file: string; chars: number } | { dropped: string };

export interface StoredRun {
  id: string;
  /** The server's base URL: runs of one server are never shown for another. */
  server: string;
  functionName: string;
  /** The parameter file's URI (as text), when the run came from one. */
  file?: string;
  /** ISO date-time the run started. */
  startedAt: string;
  durationMs: number;
  outcome: RunOutcome;
  /** One line: the result's summary or the error message. */
  summary: string;
  /** The inputs as sent. */
  inputs: Stash;
  /** The result (ok runs only). */
  result?: Stash;
  /** A script's text run before saving (▶ Run on Datagrok): its file and the text, kept like a value. */
  script?: { uri: string; fileName: string; prefix: ScriptSource['prefix']; code: Stash };
}

export interface NewRun {
  id: string;
  server: string;
  functionName: string;
  file?: string;
  startedAt: number;
  durationMs: number;
  outcome: RunOutcome;
  summary: string;
  inputs: Record<string, unknown>;
  /** Present for ok runs (`undefined` results are kept as null). */
  result?: unknown;
  /** The script whose text ran (a temporary copy of it), when the run was one. */
  script?: ScriptSource;
}

/** Where values too large for the global state go. */
export interface BlobStore {
  write(name: string, text: string): Promise<void>;
  /** The text, or undefined when the file is gone. */
  read(name: string): Promise<string | undefined>;
  remove(name: string): Promise<void>;
}

/** A BlobStore in a folder (the extension's global storage). */
export class FolderBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  private file(name: string): string {
    if (!/^[\w.-]+$/.test(name)) throw new Error(`Not a stored run file name: ${name}`);
    return path.join(this.dir, name);
  }

  async write(name: string, text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.file(name), text, { encoding: 'utf8', mode: 0o600 });
  }

  async read(name: string): Promise<string | undefined> {
    try {
      return await readFile(this.file(name), 'utf8');
    } catch {
      return undefined;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.file(name), { force: true });
  }
}

export interface RunLimits {
  /** Runs kept per server (older ones are forgotten, with their files). */
  maxRuns: number;
  /** Values up to this many characters stay in the global state. */
  inlineChars: number;
  /** Values over this many characters are not kept (the run is, with a note). */
  maxStoredChars: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxRuns: 50, inlineChars: 4096, maxStoredChars: 32 * 1024 * 1024 };

const KEY = 'datagrok.runs';

export class RunsStore {
  private readonly changed = new Emitter<void>();
  /** Fires after a run was added or removed. */
  readonly onDidChange = this.changed.event;
  /** Writes one after another: two runs finishing together both land. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: KeyValueStore,
    private readonly blobs: BlobStore,
    private readonly limits: () => RunLimits = () => DEFAULT_RUN_LIMITS,
  ) {}

  private all(): StoredRun[] {
    const stored = this.state.get<StoredRun[] | undefined>(KEY, []);
    return Array.isArray(stored) ? stored : [];
  }

  /** The server's runs, newest first. */
  list(server: string): StoredRun[] {
    return this.all().filter((r) => r.server === server);
  }

  get(id: string): StoredRun | undefined {
    return this.all().find((r) => r.id === id);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async stash(id: string, what: 'inputs' | 'result' | 'script', value: unknown): Promise<Stash> {
    const text = JSON.stringify(value === undefined ? null : value);
    const { inlineChars, maxStoredChars } = this.limits();
    if (text.length <= inlineChars) return { inline: text };
    if (text.length > maxStoredChars) {
      const noun = what === 'inputs' ? 'inputs were' : what === 'result' ? 'result was' : "script's text was";
      return { dropped: `The ${noun} too large to keep (${text.length.toLocaleString('en-US')} characters).` };
    }
    const file = `${id}.${what}.json`;
    await this.blobs.write(file, text);
    return { file, chars: text.length };
  }

  /** Remembers a run (newest first); forgets the server's runs beyond the limit, and their files. */
  add(run: NewRun): Promise<StoredRun> {
    return this.serial(async () => {
      const stored: StoredRun = {
        id: run.id,
        server: run.server,
        functionName: run.functionName,
        ...(run.file ? { file: run.file } : {}),
        startedAt: new Date(run.startedAt).toISOString(),
        durationMs: run.durationMs,
        outcome: run.outcome,
        summary: run.summary,
        inputs: await this.stash(run.id, 'inputs', run.inputs),
        ...(run.outcome === 'ok' ? { result: await this.stash(run.id, 'result', run.result) } : {}),
        ...(run.script
          ? { script: { uri: run.script.uri, fileName: run.script.fileName, prefix: run.script.prefix, code: await this.stash(run.id, 'script', run.script.code) } }
          : {}),
      };
      const max = Math.max(0, Math.floor(this.limits().maxRuns));
      const others = this.all().filter((r) => r.id !== run.id);
      const mine = [stored, ...others.filter((r) => r.server === run.server)].sort(newestFirst);
      const kept = mine.slice(0, max);
      const forgotten = mine.slice(max);
      await this.state.update(KEY, [...kept, ...others.filter((r) => r.server !== run.server)].sort(newestFirst));
      await this.removeFiles(forgotten);
      this.changed.fire();
      return stored;
    });
  }

  /** Forgets one run. */
  remove(id: string): Promise<void> {
    return this.serial(async () => {
      const all = this.all();
      const gone = all.filter((r) => r.id === id);
      if (gone.length === 0) return;
      await this.state.update(
        KEY,
        all.filter((r) => r.id !== id),
      );
      await this.removeFiles(gone);
      this.changed.fire();
    });
  }

  /** Forgets every run of a server; returns how many. */
  clear(server: string): Promise<number> {
    return this.serial(async () => {
      const all = this.all();
      const gone = all.filter((r) => r.server === server);
      await this.state.update(
        KEY,
        all.filter((r) => r.server !== server),
      );
      await this.removeFiles(gone);
      this.changed.fire();
      return gone.length;
    });
  }

  /** Applies a lower limit at once (the setting changed). */
  trim(): Promise<void> {
    return this.serial(async () => {
      const max = Math.max(0, Math.floor(this.limits().maxRuns));
      const all = this.all();
      const counts = new Map<string, number>();
      const kept: StoredRun[] = [];
      const gone: StoredRun[] = [];
      for (const r of all) {
        const n = (counts.get(r.server) ?? 0) + 1;
        counts.set(r.server, n);
        (n <= max ? kept : gone).push(r);
      }
      if (gone.length === 0) return;
      await this.state.update(KEY, kept);
      await this.removeFiles(gone);
      this.changed.fire();
    });
  }

  private async removeFiles(runs: readonly StoredRun[]): Promise<void> {
    for (const r of runs) {
      for (const s of [r.inputs, r.result, r.script?.code]) {
        if (s && 'file' in s) await this.blobs.remove(s.file).catch(() => undefined);
      }
    }
  }

  private async unstash(s: Stash | undefined): Promise<{ value: unknown } | { missing: string }> {
    if (!s) return { missing: 'Nothing was kept.' };
    if ('dropped' in s) return { missing: s.dropped };
    const text = 'inline' in s ? s.inline : await this.blobs.read(s.file);
    if (text === undefined) return { missing: "Its file in the extension's storage is gone." };
    return { value: JSON.parse(text) };
  }

  /** A run's result, or why it is not there. */
  result(run: StoredRun): Promise<{ value: unknown } | { missing: string }> {
    return run.outcome === 'ok' ? this.unstash(run.result) : Promise.resolve({ missing: `The run ${run.outcome === 'failed' ? 'failed' : 'was cancelled'}: it has no result.` });
  }

  /** The inputs a run sent, or why they are not there. */
  async inputs(run: StoredRun): Promise<{ value: Record<string, unknown> } | { missing: string }> {
    const got = await this.unstash(run.inputs);
    if ('missing' in got) return got;
    const v = got.value;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? { value: v as Record<string, unknown> } : { value: {} };
  }

  /** The script whose text a run ran (▶ Run on Datagrok), or why it is not there. */
  async script(run: StoredRun): Promise<{ value: ScriptSource } | { missing: string }> {
    if (!run.script) return { missing: 'This version did not keep the text of scripts run before saving.' };
    const got = await this.unstash(run.script.code);
    if ('missing' in got) return got;
    const { uri, fileName, prefix } = run.script;
    return typeof got.value === 'string' ? { value: { uri, fileName, prefix, code: got.value } } : { missing: "What was kept is not a script's text." };
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function newestFirst(a: StoredRun, b: StoredRun): number {
  return a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0;
}
