// Folder sync benchmark: a folder of many files (default 10,000 files, 1 GiB) against a child emulator.
//   node out/test/bench/sync.js [--files 10000] [--size 1G] [--changed 10] [--dir /tmp]
// Figures: push through src/platform/syncSession against plain uploads of the same files (one curl process,
// one POST per file, the connection kept); status of the linked folder when nothing changed; pull into an
// empty folder against the Python client's sync_dir request sequence (test/contract/sync_dir.py, python3 with
// urllib: datagrok-api itself cannot be installed offline); then a push after editing a few files (only they
// move). Ratios are reference time / our time: above 1 we are faster.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { createClient } from '../../src/api';
import { openSession, runSync } from '../../src/platform/syncSession';
import { writeLink } from '../../src/platform/syncStore';
import { runBench, startChildEmulator } from './childEmulator';
import { type Figure, printFigures, settle } from './figures';

const KEY = 'bench-key';
const CONNECTOR = 'demo:Home';
const run = promisify(execFile);

function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)$/i.exec(text.trim());
  if (!m) throw new Error(`--size: expected e.g. 1G or 200M, got "${text}"`);
  return Math.round(Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g']);
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  await settle();
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

runBench(async () => {
  const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, size: { type: 'string', default: '1G' }, changed: { type: 'string', default: '10' }, dir: { type: 'string' } } });
  const count = Number(values.files);
  const total = parseSize(values.size ?? '1G');
  const root = await mkdtemp(join(values.dir ?? tmpdir(), 'dg-sync-bench-'));
  const emulator = await startChildEmulator(join(root, 'server'), KEY);
  const client = createClient({ baseUrl: emulator.baseUrl, apiKey: KEY });
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
    console.log(`${count} files of ${each} bytes (${mb.toFixed(0)} MiB) in ${root}`);
    await writeLink(local, { connector: CONNECTOR, path: 'bench/ours' });

    const push = await timed(() => runSync(client, local, { direction: 'push' }));
    const config = rels.map((rel, i) => `${i ? 'next\n' : ''}url = "${emulator.baseUrl}/public/v1/files/demo.Home/bench/curl/${rel}"\ndata-binary = "@${join(local, rel)}"\nheader = "Authorization: Bearer ${KEY}"\noutput = "/dev/null"\n`).join('');
    await writeFile(join(root, 'curl.cfg'), config);
    const curl = await timed(() => run('curl', ['-sS', '--fail', '-K', join(root, 'curl.cfg')], { maxBuffer: 64 * 1024 * 1024 }));

    const status = await timed(async () => (await openSession(client, local)).statuses.length);
    const statusAgain = await timed(async () => (await openSession(client, local)).statuses.filter((s) => s.state !== 'same').length);

    const pulled = join(root, 'pulled');
    await mkdir(pulled);
    await writeLink(pulled, { connector: CONNECTOR, path: 'bench/ours' });
    const pull = await timed(() => runSync(client, pulled, { direction: 'pull' }));
    const py = join(root, 'python');
    await mkdir(py);
    const script = join(__dirname, '..', '..', '..', 'test', 'contract', 'sync_dir.py');
    const python = await timed(() => run('python3', [script, emulator.baseUrl, `Bearer ${KEY}`, CONNECTOR, 'bench/ours', py, join(root, 'py-state.json')], { maxBuffer: 1024 * 1024 }));

    const changed = Math.min(count, Number(values.changed));
    for (let i = 0; i < changed; i++) await writeFile(join(local, rels[i * Math.floor(count / changed)]), randomBytes(each));
    const again = await timed(() => runSync(client, local, { direction: 'push' }));
    const movedAgain = again.value.filter((a) => a.action === 'upload');

    const pullRatio = python.ms / pull.ms;
    const pushRatio = curl.ms / push.ms;
    const figures: Figure[] = [
      { name: `push ${count} files (ours)`, value: `${(push.ms / 1000).toFixed(1)} s, ${push.value.length} uploads`, target: 'all files', ok: push.value.length === count },
      { name: 'push vs plain uploads (curl)', value: `${pushRatio.toFixed(2)} (curl ${(curl.ms / 1000).toFixed(1)} s)`, target: '>= 0.5 (a recheck of the server copy before each upload)', ok: pushRatio >= 0.5, miss: 'BELOW' },
      { name: 'status, nothing changed', value: `${(status.ms / 1000).toFixed(2)} s (again ${(statusAgain.ms / 1000).toFixed(2)} s, ${statusAgain.value} changed)`, target: '<= 2 s', ok: statusAgain.ms <= 2000 && statusAgain.value === 0, miss: 'ABOVE' },
      { name: 'pull into an empty folder (ours)', value: `${(pull.ms / 1000).toFixed(1)} s, ${pull.value.length} downloads`, target: 'all files', ok: pull.value.length === count },
      { name: 'pull vs Python sync_dir sequence', value: `${pullRatio.toFixed(2)} (python ${(python.ms / 1000).toFixed(1)} s: ${python.value.stdout.trim()})`, target: '>= 0.9', ok: pullRatio >= 0.9, miss: 'BELOW' },
      { name: `push after editing ${changed} files`, value: `${(again.ms / 1000).toFixed(2)} s, ${movedAgain.length} uploads`, target: `only those ${changed}`, ok: movedAgain.length === changed },
    ];
    printFigures(`Folder sync (${count} files, ${mb.toFixed(0)} MiB)`, figures);
  } finally {
    await client.close();
    await emulator.stop();
    await rm(root, { recursive: true, force: true });
  }
});
