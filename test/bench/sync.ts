// Folder sync benchmark: a folder of many files (default 10,000 files, 1 GiB) against a child emulator.
//   node out/test/bench/sync.js [--files 10000] [--size 1G] [--changed 10] [--runs 3] [--dir /tmp]
// Figures, each beside a reference doing the same job on the same emulator in the same run, with wall clock
// and CPU seconds (ours: this process's own; the reference's: /usr/bin/time):
// - push of every file through src/platform/syncSession against plain uploads (one curl process, one POST per
//   file, the connection kept);
// - pull into an empty folder against the Python client's sync_dir request sequence (test/contract/sync_dir.py,
//   python3 with urllib: datagrok-api itself cannot be installed offline);
// - status of the linked folder with nothing changed, then with a few files edited, taking turns with
//   sync_dir's run on its own pulled copy (the same sync-route round trip with every ETag: what the server
//   costs); target about 2 s;
// - a push after the edits (only they move).
// Ratios are reference time / our time: above 1 we are faster.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../../src/api';
import { openSession, runSync } from '../../src/platform/sync/session';
import { writeLink } from '../../src/platform/sync/store';
import { runBench, startChildEmulator } from './childEmulator';
import { type Figure, median, printFigures, settle } from './figures';

const KEY = 'bench-key';
const CONNECTOR = 'demo:Home';
const TIME = '/usr/bin/time';

function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)$/i.exec(text.trim());
  if (!m) throw new Error(`--size: expected e.g. 1G or 200M, got "${text}"`);
  return Math.round(Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g']);
}

interface Timed<T> {
  s: number;
  cpu: number;
  value: T;
}

/** Our work: wall clock and this process's CPU seconds (the emulator is a child process of its own). */
async function ours<T>(work: () => Promise<T>): Promise<Timed<T>> {
  await settle();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { s: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6, value };
}

/** A reference program: wall clock, its CPU seconds (from /usr/bin/time; NaN without it) and its output. */
async function reference(command: string, args: string[]): Promise<Timed<string>> {
  await settle();
  const timed = existsSync(TIME);
  const start = performance.now();
  const { out, err } = await new Promise<{ out: string; err: string }>((resolve, reject) => {
    const child = spawn(timed ? TIME : command, timed ? ['-f', 'cpu %U %S', command, ...args] : args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ out, err }) : reject(new Error(`${command} failed (${code}): ${err.trim().slice(-2000)}`))));
  });
  const s = (performance.now() - start) / 1000;
  const times = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(err);
  return { s, cpu: times ? Number(times[1]) + Number(times[2]) : Number.NaN, value: out.trim() };
}

const sec = (t: { s: number; cpu: number }) => `${t.s.toFixed(2)} s (CPU ${t.cpu.toFixed(2)} s)`;
const medianOf = (runs: Timed<unknown>[]) => ({ s: median(runs.map((r) => r.s)), cpu: median(runs.map((r) => r.cpu)) });

runBench(async () => {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '10000' },
      size: { type: 'string', default: '1G' },
      changed: { type: 'string', default: '10' },
      runs: { type: 'string', default: '3' },
      dir: { type: 'string' },
    },
  });
  const count = Number(values.files);
  const runs = Math.max(1, Number(values.runs));
  const total = parseSize(values.size ?? '1G');
  const root = await mkdtemp(join(values.dir ?? tmpdir(), 'dg-sync-bench-'));
  const emulator = await startChildEmulator(join(root, 'server'), KEY);
  const client = createClient({ baseUrl: emulator.baseUrl, apiKey: KEY });
  const load = () => loadavg()[0].toFixed(1);
  try {
    const local = join(root, 'local');
    const each = Math.max(1, Math.floor(total / count));
    const rels: string[] = [];
    for (let i = 0; i < count; i++) {
      const rel = `d${String(i % 100).padStart(2, '0')}/f${String(i).padStart(5, '0')}.bin`;
      rels.push(rel);
      await mkdir(join(local, rel, '..'), { recursive: true });
      await writeFile(join(local, rel), randomBytes(each));
    }
    const mb = (count * each) / 1024 ** 2;
    const loads = [`start ${load()}`];
    console.log(`${count} files of ${each} bytes (${mb.toFixed(0)} MiB) in ${root}`);
    await writeLink(local, { connector: CONNECTOR, path: 'bench/ours' });

    // Push: plain uploads first (the server learns nothing from them that helps ours), then ours.
    const config = rels
      .map(
        (rel, i) =>
          `${i ? 'next\n' : ''}url = "${emulator.baseUrl}/public/v1/files/demo.Home/bench/curl/${rel}"\ndata-binary = "@${join(local, rel)}"\nheader = "Authorization: Bearer ${KEY}"\noutput = "/dev/null"\n`,
      )
      .join('');
    await writeFile(join(root, 'curl.cfg'), config);
    const curl = await reference('curl', ['-sS', '--fail', '-K', join(root, 'curl.cfg')]);
    const push = await ours(() => runSync(client, local, { direction: 'push' }));
    loads.push(`after push ${load()}`);

    // Pull into empty folders: the Python sequence, then ours.
    const script = join(__dirname, '..', '..', '..', 'test', 'contract', 'sync_dir.py');
    const py = join(root, 'python');
    await mkdir(py);
    const pyState = join(root, 'py-state.json');
    const syncDir = () => reference('python3', [script, emulator.baseUrl, `Bearer ${KEY}`, CONNECTOR, 'bench/ours', py, pyState]);
    const python = await syncDir();
    const pulled = join(root, 'pulled');
    await mkdir(pulled);
    await writeLink(pulled, { connector: CONNECTOR, path: 'bench/ours' });
    const pull = await ours(() => runSync(client, pulled, { direction: 'pull' }));
    loads.push(`after pull ${load()}`);

    // Status, nothing changed, then with a few files edited: ours and sync_dir's round trip take turns.
    const status = async () => {
      const s = await openSession(client, local);
      await s.base.close();
      return s.statuses.filter((x) => x.state !== 'same').length;
    };
    const statusRuns = async () => {
      const o: Timed<number>[] = [];
      const r: Timed<string>[] = [];
      for (let i = 0; i < runs; i++) {
        if (i % 2 === 0) {
          o.push(await ours(status));
          r.push(await syncDir());
        } else {
          r.push(await syncDir());
          o.push(await ours(status));
        }
      }
      return { o, r };
    };
    const same = await statusRuns();
    const changed = Math.min(count, Number(values.changed));
    for (let i = 0; i < changed; i++) await writeFile(join(local, rels[i * Math.floor(count / changed)]), randomBytes(each));
    const edited = await statusRuns();
    loads.push(`after status ${load()}`);
    const again = await ours(() => runSync(client, local, { direction: 'push' }));
    const movedAgain = again.value.filter((a) => a.action === 'upload');
    loads.push(`end ${load()}`);

    const statusFigure = (name: string, r: { o: Timed<number>[]; r: Timed<string>[] }, expected: number): Figure => {
      const o = medianOf(r.o);
      const ref = medianOf(r.r);
      const found = r.o.map((x) => x.value);
      return {
        name,
        value: `${sec(o)}, ${found.join('/')} changed; sync_dir's round trip ${sec(ref)}; ours beyond it ${(o.s - ref.s).toFixed(2)} s (medians of ${runs})`,
        target: '<= 2 s',
        ok: o.s <= 2 && found.every((n) => n === expected),
        miss: 'ABOVE',
      };
    };
    const pushRatio = curl.s / push.s;
    const pullRatio = python.s / pull.s;
    const figures: Figure[] = [
      { name: `push ${count} files (ours)`, value: `${sec(push)}, ${push.value.length} uploads`, target: 'all files', ok: push.value.length === count },
      {
        name: 'push vs plain uploads (curl)',
        value: `${pushRatio.toFixed(2)} (curl ${sec(curl)})`,
        target: '>= 0.5 (a check of the server copies before the uploads)',
        ok: pushRatio >= 0.5,
        miss: 'BELOW',
      },
      { name: 'pull into an empty folder (ours)', value: `${sec(pull)}, ${pull.value.length} downloads`, target: 'all files', ok: pull.value.length === count },
      {
        name: 'pull vs Python sync_dir sequence',
        value: `${pullRatio.toFixed(2)} (python ${sec(python)}: ${python.value})`,
        target: '>= 0.9',
        ok: pullRatio >= 0.9,
        miss: 'BELOW',
      },
      statusFigure('status, nothing changed', same, 0),
      statusFigure(`status, ${changed} files edited`, edited, changed),
      { name: `push after editing ${changed} files`, value: `${sec(again)}, ${movedAgain.length} uploads`, target: `only those ${changed}`, ok: movedAgain.length === changed },
    ];
    printFigures(`Folder sync (${count} files, ${mb.toFixed(0)} MiB; load average ${loads.join(', ')})`, figures);
  } finally {
    await client.close();
    await emulator.stop();
    await rm(root, { recursive: true, force: true });
  }
});
