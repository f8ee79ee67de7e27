// Node's own HTTP client used plainly for a download, measured beside curl in the same minutes: an
// `https.get` piped into `fs.createWriteStream` (1 MiB writes, one TLS context made beforehand, the same
// way the client makes one per client), with no progress, checks or cancellation. It leaves each read and
// each body chunk to the collector, so it pays a page fault per fresh page of them; the client gives them
// back as it goes (src/api/release.ts) and spends less than this line since.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import { createSecureContext, rootCertificates } from 'node:tls';
import { settle } from './figures';
import { type Measured, timedCurl } from './transferRuns';

export interface NodeFloorBench {
  /** The emulator's base URL (…/api). */
  baseUrl: string;
  key: string;
  /** The file to fetch, relative to the connector's root (the client's upload from transferRuns). */
  fileUrl: string;
  /** PEM of the private authority (HTTPS), trusted beside Node's roots. */
  ca?: string;
  curlArgs: string[];
  dir: string;
  runs: number;
  measure(run: () => Promise<unknown>): Promise<Measured>;
}

/** Per run: Node's floor CPU seconds, curl's, and their ratio (runs alternate which goes first). */
export async function nodeFloorRuns(b: NodeFloorBench): Promise<{ node: number[]; curl: number[]; ratios: number[] }> {
  const secure = b.fileUrl.startsWith('https:');
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const context = secure && b.ca ? { secureContext: createSecureContext({ ca: [...rootCertificates, b.ca] }) } : {};
  const headers = { authorization: `Bearer ${b.key}` };
  const nodeTarget = join(b.dir, 'node-floor.bin');
  const curlTarget = join(b.dir, 'curl-floor.bin');
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const request = secure ? https.get : http.get;
      request(b.fileUrl, { agent, headers, ...context }, (res) => {
        const out = createWriteStream(nodeTarget, { highWaterMark: 1024 * 1024 });
        res.pipe(out);
        out.once('finish', () => resolve());
        out.once('error', reject);
        res.once('error', reject);
      }).once('error', reject);
    });
  const result = { node: [] as number[], curl: [] as number[], ratios: [] as number[] };
  try {
    for (let run = 0; run < b.runs; run++) {
      let curlCpu = Number.NaN;
      const node = async () => {
        await settle();
        await rm(nodeTarget, { force: true });
        return b.measure(get);
      };
      const curl = async () => {
        await settle();
        await rm(curlTarget, { force: true });
        curlCpu = (await timedCurl([...b.curlArgs, '-H', `Authorization: Bearer ${b.key}`, '-o', curlTarget, b.fileUrl])).cpu;
      };
      let measured: Measured;
      if (run % 2 === 0) {
        measured = await node();
        await curl();
      } else {
        await curl();
        measured = await node();
      }
      result.node.push(measured.cpu);
      result.curl.push(curlCpu);
      result.ratios.push(measured.cpu / curlCpu);
    }
  } finally {
    agent.destroy();
    await rm(nodeTarget, { force: true });
    await rm(curlTarget, { force: true });
  }
  return result;
}
