// Node's own HTTP client for a download, measured beside curl in the same minutes, in one of two ways:
// - 'plain': an `https.get` piped into `fs.createWriteStream` (1 MiB writes, one TLS context made
//   beforehand, the same way the client makes one per client), with no progress, checks or cancellation.
//   It leaves each read and each body chunk to the collector, so it pays a page fault per fresh page of
//   them; the client gives them back as it goes (src/api/release.ts) and spends less than this line since.
// - 'fastest': the fastest download Node's HTTP client does here: an `http.get` writing each chunk with
//   `writeSync` as curl does, each socket read and each chunk released once used (release.ts). The
//   client cannot write that way (a synchronous write blocks the extension host whenever the kernel
//   throttles writeback or a network drive stalls), so this is the ceiling of any client on Node's HTTP:
//   the bench prints the client's ratio beside it.
import { closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import { createSecureContext, rootCertificates } from 'node:tls';
import { release, releaseReads } from '../../src/api/release';
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
  /** 'plain' (piped into a write stream; the default) or 'fastest' (synchronous writes, memory released). */
  way?: 'plain' | 'fastest';
}

export interface NodeFloorFigures {
  /** Per run: Node's CPU seconds, curl's, and their ratio. */
  node: number[];
  curl: number[];
  ratios: number[];
  /** Per run: Node's throughput / curl's (wall clock). */
  speed: number[];
}

/** The file came (200); otherwise the answer is dropped and the run fails with its status. */
function answered(res: http.IncomingMessage, reject: (err: Error) => void): boolean {
  if (res.statusCode === 200) return true;
  res.resume();
  reject(new Error(`Node's download of the bench file failed: HTTP ${res.statusCode}`));
  return false;
}

/** The bench file on a bench emulator: the client's upload from transferRuns. */
export function uploadedFileUrl(baseUrl: string, connector: string): string {
  return `${baseUrl}/public/v1/files/${connector.replace(':', '.')}/bench/client-upload.bin`;
}

/** Per run, Node's download against curl's (runs alternate which goes first). */
export async function nodeFloorRuns(b: NodeFloorBench): Promise<NodeFloorFigures> {
  const secure = b.fileUrl.startsWith('https:');
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const context = secure && b.ca ? { secureContext: createSecureContext({ ca: [...rootCertificates, b.ca] }) } : {};
  const headers = { authorization: `Bearer ${b.key}` };
  const nodeTarget = join(b.dir, 'node-floor.bin');
  const curlTarget = join(b.dir, 'curl-floor.bin');
  const fastest = () =>
    new Promise<void>((resolve, reject) => {
      const request = secure ? https.get : http.get;
      request(b.fileUrl, { agent, headers, ...context }, (res) => {
        if (!answered(res, reject)) return;
        const fd = openSync(nodeTarget, 'w');
        const stop = releaseReads(res);
        const done = (err?: Error) => {
          stop();
          closeSync(fd);
          if (err) reject(err);
          else resolve();
        };
        res.on('data', (chunk: Buffer) => {
          try {
            writeSync(fd, chunk);
          } catch (err) {
            res.destroy(err as Error);
            return;
          }
          release(chunk);
        });
        res.once('end', () => done());
        res.once('error', done);
      }).once('error', reject);
    });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const request = secure ? https.get : http.get;
      request(b.fileUrl, { agent, headers, ...context }, (res) => {
        if (!answered(res, reject)) return;
        const out = createWriteStream(nodeTarget, { highWaterMark: 1024 * 1024 });
        res.pipe(out);
        out.once('finish', () => resolve());
        out.once('error', reject);
        res.once('error', reject);
      }).once('error', reject);
    });
  const download = b.way === 'fastest' ? fastest : get;
  const result: NodeFloorFigures = { node: [], curl: [], ratios: [], speed: [] };
  try {
    for (let run = 0; run < b.runs; run++) {
      let curlCpu = Number.NaN;
      let curlSeconds = Number.NaN;
      const node = async () => {
        await settle();
        await rm(nodeTarget, { force: true });
        return b.measure(download);
      };
      const curl = async () => {
        await settle();
        await rm(curlTarget, { force: true });
        // Timed as the client's curl is (transferRuns): the same wrapper, the process's start included.
        curlSeconds = (
          await b.measure(async () => {
            curlCpu = (await timedCurl([...b.curlArgs, '-H', `Authorization: Bearer ${b.key}`, '-o', curlTarget, b.fileUrl])).cpu;
          })
        ).seconds;
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
      result.speed.push(curlSeconds / measured.seconds);
    }
  } finally {
    agent.destroy();
    await rm(nodeTarget, { force: true });
    await rm(curlTarget, { force: true });
  }
  return result;
}
