// One protocol's half of the transfer benchmark (plain HTTP or HTTPS): an upload and a download of the
// same file by src/api and by curl, interleaved, each run timed back to back with the order alternating,
// with wall clock, CPU seconds (the client's own; curl's from /usr/bin/time) and the client's peak
// extra memory.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatagrokClient } from '../../src/api';
import { type Measured, settle } from './figures';

const MiB = 1024 * 1024;
const TIME = '/usr/bin/time';

export type { Measured } from './figures';

export interface TransferRunsBench {
  label: string;
  api: DatagrokClient;
  /** The emulator's base URL (…/api) as curl reaches it. */
  baseUrl: string;
  /** curl's extra arguments (e.g. --cacert for the private authority). */
  curlArgs: string[];
  key: string;
  connector: string;
  source: string;
  size: number;
  dir: string;
  runs: number;
  measure(run: () => Promise<unknown>): Promise<Measured>;
  check(file: string): Promise<void>;
}

export interface TransferFigures {
  up: number[];
  down: number[];
  /** Per run: client CPU / curl CPU (NaN where curl's CPU could not be read). */
  upCpu: number[];
  downCpu: number[];
  cpu: { clientUp: number[]; curlUp: number[]; clientDown: number[]; curlDown: number[] };
  mem: { up: number; down: number };
}

/** curl with its CPU seconds (user + system, from /usr/bin/time when installed; NaN otherwise). */
export function timedCurl(args: string[]): Promise<{ cpu: number }> {
  const timed = existsSync(TIME);
  const [command, argv] = timed ? [TIME, ['-f', 'cpu %U %S', 'curl', '-sS', '-w', '%{http_code}', ...args]] : ['curl', ['-sS', '-w', '%{http_code}', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const times = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(err);
      if (code !== 0 || !out.trim().endsWith('200')) reject(new Error(`curl failed (${code}, HTTP ${out.trim()}): ${err.replace(/cpu [\d. ]+$/, '').trim()}`));
      else resolve({ cpu: times ? Number(times[1]) + Number(times[2]) : Number.NaN });
    });
  });
}

export async function transferRuns(b: TransferRunsBench): Promise<TransferFigures> {
  const { api } = b;
  const rest = b.connector.replace(':', '.');
  const fileUrl = (name: string) => `${b.baseUrl}/public/v1/files/${rest}/bench/${name}`;
  const auth = `Authorization: Bearer ${b.key}`;
  const f: TransferFigures = { up: [], down: [], upCpu: [], downCpu: [], cpu: { clientUp: [], curlUp: [], clientDown: [], curlDown: [] }, mem: { up: 0, down: 0 } };
  const clientTarget = join(b.dir, 'client-download.bin');
  const curlTarget = join(b.dir, 'curl-download.bin');
  const mib = b.size / MiB;
  for (let run = 0; run < b.runs; run++) {
    // Client and curl take turns going first. Before each transfer, untimed: dirty pages are written back
    // (settle), then the transfer's own copy from the run before is deleted (the emulator's stored file
    // for an upload, the target file for a download), so each writes into memory the kernel has just
    // freed, as the other did: this VM hands freed memory back to its host at once, and a page the host
    // must supply again costs several times a recycled one.
    const clientFirst = run % 2 === 0;
    const pair = async (client: () => Promise<unknown>, curlArgs: string[], before: { client: () => Promise<unknown>; reference: () => Promise<unknown> }) => {
      let curlCpu = Number.NaN;
      const reference = async () => {
        curlCpu = (await timedCurl([...b.curlArgs, ...curlArgs])).cpu;
      };
      const timed = async (run: () => Promise<unknown>, free: () => Promise<unknown>) => {
        await settle();
        await free();
        return b.measure(run);
      };
      let c: Measured;
      let u: Measured;
      if (clientFirst) {
        c = await timed(client, before.client);
        u = await timed(reference, before.reference);
      } else {
        u = await timed(reference, before.reference);
        c = await timed(client, before.client);
      }
      return { c, u, curlCpu };
    };
    const upPair = await pair(
      () => api.uploadFile(b.connector, 'bench/client-upload.bin', { file: b.source }),
      ['-T', b.source, '-X', 'POST', '-H', auth, fileUrl('curl-upload.bin'), '-o', '/dev/null'],
      {
        client: () => api.deleteFile(b.connector, 'bench/client-upload.bin').catch(() => undefined),
        reference: () => api.deleteFile(b.connector, 'bench/curl-upload.bin').catch(() => undefined),
      },
    );
    const downPair = await pair(
      () => api.downloadFile(b.connector, 'bench/client-upload.bin', { file: clientTarget }),
      ['-H', auth, '-o', curlTarget, fileUrl('client-upload.bin')],
      { client: () => rm(clientTarget, { force: true }), reference: () => rm(curlTarget, { force: true }) },
    );
    f.up.push(upPair.u.seconds / upPair.c.seconds);
    f.down.push(downPair.u.seconds / downPair.c.seconds);
    f.upCpu.push(upPair.c.cpu / upPair.curlCpu);
    f.downCpu.push(downPair.c.cpu / downPair.curlCpu);
    f.cpu.clientUp.push(upPair.c.cpu);
    f.cpu.curlUp.push(upPair.curlCpu);
    f.cpu.clientDown.push(downPair.c.cpu);
    f.cpu.curlDown.push(downPair.curlCpu);
    f.mem.up = Math.max(f.mem.up, upPair.c.extraRss);
    f.mem.down = Math.max(f.mem.down, downPair.c.extraRss);
    const fmt = (n: number, d = 1) => (Number.isNaN(n) ? 'n/a' : n.toFixed(d));
    console.log(
      `${b.label} run ${run + 1} (${clientFirst ? 'client' : 'curl'} first): upload ${fmt(mib / upPair.c.seconds)} vs curl ${fmt(mib / upPair.u.seconds)} MiB/s (${fmt(f.up[run], 2)}), ` +
        `download ${fmt(mib / downPair.c.seconds)} vs curl ${fmt(mib / downPair.u.seconds)} MiB/s (${fmt(f.down[run], 2)}); ` +
        `CPU s client/curl up ${fmt(upPair.c.cpu, 2)}/${fmt(upPair.curlCpu, 2)}, down ${fmt(downPair.c.cpu, 2)}/${fmt(downPair.curlCpu, 2)}; ` +
        `extra RSS ${fmt(upPair.c.extraRss / MiB)} / ${fmt(downPair.c.extraRss / MiB)} MiB`,
    );
    if (run === 0) {
      for (const target of [clientTarget, curlTarget]) {
        const { size: got } = await stat(target);
        if (got !== b.size) throw new Error(`size mismatch: ${target} has ${got} bytes, expected ${b.size}`);
        await b.check(target);
      }
    }
  }
  await rm(clientTarget, { force: true });
  await rm(curlTarget, { force: true });
  return f;
}
