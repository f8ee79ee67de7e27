// The proxied half of the transfer benchmark: the same upload and download through a real tinyproxy on
// a loopback port, by src/api (http.proxy) and by curl (-x), the server named by a non-loopback host
// name (loopback is never proxied). Prints the client/curl ratios.
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '../../src/api';
import { TEST_HOST } from '../network/certs';
import { ensureTestHost } from '../network/hosts';
import { hasTinyproxy, startTinyproxy } from '../network/tinyproxy';

const MiB = 1024 * 1024;

export interface ProxiedBench {
  baseUrl: string;
  key: string;
  connector: string;
  source: string;
  size: number;
  dir: string;
  runs: number;
  measure(run: () => Promise<unknown>): Promise<{ seconds: number }>;
  curl(args: string[]): Promise<string>;
  fmt(n: number, digits?: number): string;
}

export async function proxiedRun(b: ProxiedBench): Promise<void> {
  if (!hasTinyproxy()) {
    console.log('\nProxied run skipped: tinyproxy is not installed (apt-get install -y tinyproxy).');
    return;
  }
  const undoHost = await ensureTestHost();
  const proxy = await startTinyproxy();
  const url = new URL(b.baseUrl);
  url.hostname = TEST_HOST;
  const baseUrl = url.href.replace(/\/$/, '');
  const api = createClient({ baseUrl, apiKey: b.key, network: { proxy: proxy.url, env: {} } });
  try {
    console.log(`\nThrough tinyproxy ${proxy.url} (pid ${proxy.pid}) to ${baseUrl}:`);
    const rest = b.connector.replace(':', '.');
    const fileUrl = (name: string) => `${baseUrl}/public/v1/files/${rest}/bench/${name}`;
    const auth = `Authorization: Bearer ${b.key}`;
    await api.listGroups();
    const best = { clientUp: Infinity, curlUp: Infinity, clientDown: Infinity, curlDown: Infinity };
    for (let run = 0; run < b.runs; run++) {
      best.clientUp = Math.min(best.clientUp, (await b.measure(() => api.uploadFile(b.connector, 'bench/proxied-upload.bin', { file: b.source }))).seconds);
      best.curlUp = Math.min(
        best.curlUp,
        (await b.measure(() => b.curl(['-x', proxy.url, '-T', b.source, '-X', 'POST', '-H', auth, fileUrl('curl-proxied.bin'), '-o', '/dev/null']))).seconds,
      );
      const target = join(b.dir, 'proxied-download.bin');
      best.clientDown = Math.min(best.clientDown, (await b.measure(() => api.downloadFile(b.connector, 'bench/proxied-upload.bin', { file: target }))).seconds);
      if ((await stat(target)).size !== b.size) throw new Error('the proxied download has the wrong size');
      best.curlDown = Math.min(best.curlDown, (await b.measure(() => b.curl(['-x', proxy.url, '-H', auth, '-o', target, fileUrl('proxied-upload.bin')]))).seconds);
      await rm(target, { force: true });
    }
    const forwarded = proxy.requests().filter((line) => line.includes(`${TEST_HOST}:`)).length;
    const mibs = (seconds: number) => b.size / MiB / seconds;
    console.log('direction   client MiB/s   curl -x MiB/s   client/curl   (through the proxy)');
    for (const [name, c, u] of [
      ['upload', mibs(best.clientUp), mibs(best.curlUp)],
      ['download', mibs(best.clientDown), mibs(best.curlDown)],
    ] as const) {
      console.log(`${name.padEnd(10)}  ${b.fmt(c).padStart(12)}   ${b.fmt(u).padStart(13)}   ${b.fmt(c / u, 2).padStart(11)}`);
    }
    console.log(`The proxy forwarded ${forwarded} requests to the server.`);
  } finally {
    await api.close();
    await proxy.stop();
    undoHost();
  }
}
