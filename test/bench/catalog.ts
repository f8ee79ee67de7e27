// Catalog benchmark: a server with 10,000 functions. How long the client takes to list them against
// curl fetching the same route from the same emulator (reference), and how long the platform then takes
// to make the Functions view's first level (packages, the first page of each) from the answer, against
// the target of 150 ms. The emulator runs in a child process. Not a test: it prints figures.
//
// The list's target is against the floor for any JavaScript client — curl's transfer plus turning the
// same bytes into a string and JSON.parse — since curl neither decodes nor parses: for 17 MB of JSON
// those two take as long as the transfer itself. The plain client/curl ratio is printed beside it.
//
//   node out/test/bench/catalog.js [--functions 10000] [--runs 5]
import { execFile } from 'node:child_process';
import { parseArgs } from 'node:util';
import { byPackage } from '../../src/platform/functions/catalog';
import { PAGE_SIZE } from '../../src/platform/paging';
import { runBench, withEmulatorClient } from './childEmulator';

const KEY = 'bench-key';

function curlSeconds(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-H', `Authorization: Bearer ${KEY}`, url], (err, stdout, stderr) => {
      if (err) return reject(new Error(`curl failed: ${stderr || err.message}`));
      const [code, seconds] = stdout.trim().split(' ');
      if (code !== '200') return reject(new Error(`curl: HTTP ${code}`));
      resolve(Number(seconds));
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { functions: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } } });
  const extraFunctions = Number(values.functions);
  const runs = Math.max(1, Number(values.runs));
  await withEmulatorClient(KEY, ['--functions', String(extraFunctions)], async (client, emulator) => {
    // The floor for any JavaScript client: curl's transfer plus decoding and JSON.parse of the same bytes.
    const bytes = Buffer.from(await (await fetch(`${emulator.baseUrl}/public/v1/functions`, { headers: { authorization: `Bearer ${KEY}` } })).arrayBuffer());
    const body = bytes.toString('utf8');
    let parse = Infinity;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      JSON.parse(bytes.toString('utf8'));
      parse = Math.min(parse, (performance.now() - t) / 1000);
    }
    let best = { client: Infinity, curl: Infinity, firstLevel: Infinity, count: 0, packages: 0 };
    for (let i = 0; i < runs; i++) {
      const curl = await curlSeconds(`${emulator.baseUrl}/public/v1/functions`);
      const started = performance.now();
      const funcs = await client.listFunctions();
      const answered = performance.now();
      const groups = byPackage(funcs);
      const firstLevel = [...groups].map(([pkg, list]) => ({ pkg, shown: list.slice(0, PAGE_SIZE).map((f) => f.nqName), more: list.length > PAGE_SIZE }));
      const done = performance.now();
      best = {
        client: Math.min(best.client, (answered - started) / 1000),
        curl: Math.min(best.curl, curl),
        firstLevel: Math.min(best.firstLevel, done - answered),
        count: funcs.length,
        packages: firstLevel.length,
      };
    }
    console.log(`catalog: ${best.count} functions (${(body.length / 1024 / 1024).toFixed(1)} MB of JSON) in ${best.packages} packages, best of ${runs}`);
    const floor = (best.curl + parse) / best.client;
    console.log(
      `  list functions: client ${(best.client * 1000).toFixed(0)} ms, curl ${(best.curl * 1000).toFixed(0)} ms → ${(best.curl / best.client).toFixed(2)}× curl (curl neither decodes nor parses)`,
    );
    console.log(
      `  against curl + decoding + JSON.parse (${(parse * 1000).toFixed(0)} ms), the floor for a JavaScript client: ${floor.toFixed(2)}× (target ≥ 0.9×): ${floor >= 0.9 ? 'ok' : 'BELOW'}`,
    );
    console.log(`  first level after the answer: ${best.firstLevel.toFixed(1)} ms (target ≤ 150 ms)`);
  });
}

runBench(main);
