// Publish benchmark: the extension's publish (src/platform/packages/publish/: check, pack, zip, upload,
// verify, in this process as in the extension host) against the real `grok publish --release --skip-build`
// (datagrok-tools 6.7.5, its own process: check, pack, upload; no verify) on the same package and the same
// emulator over HTTPS (a child process, a private authority). Two packages: the template with two functions
// (a few KB) and the same with a 5 MB dist/. Runs alternate, releases both (no unchanged file skipped).
//   node --expose-gc out/test/bench/publish.js [--runs 5]
// Targets: wall time ours/grok's ≤ 1.1 (median of per-run ratios); our extra memory ≤ 64 MiB.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { createClient } from '../../src/api';
import { publishPackageFolder } from '../../src/platform/packages/publish/publish';
import { makePublishablePackage } from '../fixtures/packages/publishable';
import { makeCertificates } from '../network/certs';
import { runBench, startChildEmulator } from './childEmulator';
import { type Figure, median, measure, printFigures, ratioText } from './figures';

const run = promisify(execFile);
const KEY = 'bench-key';
const MiB = 1024 * 1024;
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-publish-'));
  const certs = makeCertificates();
  const server = await startChildEmulator(undefined, KEY, ['--tls-cert', certs.good.cert, '--tls-key', certs.good.key]);
  const baseUrl = server.baseUrl.replace(/^http:/, 'https:');
  const client = createClient({ baseUrl, apiKey: KEY, network: { caCertificates: [readFileSync(certs.caFile, 'utf8')] } });
  const home = path.join(root, 'home');
  mkdirSync(path.join(home, '.grok'), { recursive: true });
  writeFileSync(path.join(home, '.grok', 'config.yaml'), `default: bench\nservers:\n  bench:\n    url: '${baseUrl}'\n    key: '${KEY}'\n`);
  const grok = require.resolve('datagrok-tools/bin/grok.js');
  const figures: Figure[] = [];
  try {
    for (const [label, distBytes] of [
      ['template package', 0],
      ['package with a 5 MB dist/', 5 * 1024 * 1024],
    ] as const) {
      const dir = makePublishablePackage(path.join(root, distBytes ? 'big' : 'small'), { version: '1.0.0', distBytes: distBytes || undefined });
      await publishPackageFolder(client, { folder: dir, release: true }); // warm: modules loaded, connection made
      const ours: number[] = [];
      const theirs: number[] = [];
      const memory: number[] = [];
      for (let i = 0; i < runs; i++) {
        const m = await measure(() => publishPackageFolder(client, { folder: dir, release: true }));
        ours.push(m.seconds);
        memory.push(m.extraRss);
        const t = performance.now();
        await run(process.execPath, [grok, 'publish', 'bench', '--release', '--skip-build'], { cwd: dir, env: { ...process.env, HOME: home, USERPROFILE: home } });
        theirs.push((performance.now() - t) / 1000);
      }
      const ratios = ours.map((s, i) => s / theirs[i]);
      figures.push(
        { name: `${label}: ours / grok publish, wall time`, value: ratioText(ratios), target: '<= 1.1 (median)', ok: median(ratios) <= 1.1, miss: 'ABOVE' },
        { name: `${label}: ours (check, pack, upload, verify)`, value: `${median(ours).toFixed(3)} s`, target: 'reported', ok: true },
        { name: `${label}: grok publish (its process: Node's start included)`, value: `${median(theirs).toFixed(3)} s`, target: 'reported', ok: true },
        {
          name: `${label}: our extra memory (peak)`,
          value: `${(Math.max(...memory) / MiB).toFixed(1)} MiB`,
          target: '<= 64 MiB',
          ok: Math.max(...memory) <= 64 * MiB,
          miss: 'ABOVE',
        },
      );
    }
  } finally {
    await client.close();
    await server.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(certs.dir, { recursive: true, force: true });
  }
  printFigures(`Publish over HTTPS against grok publish --skip-build (${runs} runs, load ${loadavg()[0].toFixed(1)})`, figures);
}

runBench(main);
