// Answers larger than what a message or the client needs: memory only. A 500 with a 50 MB body, and a
// 200 whose body is an ApiError with a 50 MB message, must cost what the message needs (the body is read
// up to 64 KB), and a JSON answer past the limit (datagrok.maxAnswerSizeMB, 64 MiB by default) must be
// refused having held it at most once. Part of transfer.js; alone (in a fresh process, as there):
//
//   node --expose-gc out/test/bench/answers.js
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createClient, DatagrokError } from '../../src/api';
import { type Figure, type Measured, measure, printFigures } from './figures';

const MiB = 1024 * 1024;

async function startAnswerServer(): Promise<{ baseUrl: string; stop(): void }> {
  const child = spawn(process.execPath, [join(__dirname, 'answerServer.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /answer server: (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the answer server exited (${code})`)));
  });
  return { baseUrl, stop: () => child.kill('SIGTERM') };
}

async function fails(run: () => Promise<unknown>, kind: string): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (err instanceof DatagrokError && err.kind === kind) return;
    throw err;
  }
  throw new Error(`expected a ${kind} failure`);
}

export async function answerFigures(measure: (run: () => Promise<unknown>) => Promise<Measured>): Promise<Figure[]> {
  const server = await startAnswerServer();
  const api = createClient({ baseUrl: server.baseUrl, apiKey: 'bench-key', retries: 0 });
  try {
    // Warm-up: the code paths compiled, so the figures are the answers' own.
    await fails(() => api.getGroup('warm'), 'server');
    const error = await measure(() => fails(() => api.getGroup('d0000000-0000-4000-8000-000000000001'), 'server'));
    const apiError = await measure(() => fails(() => api.listGroups({ text: 'apiError' }), 'server'));
    const json = await measure(() => fails(() => api.listGroups(), 'tooLarge'));
    const mib = (m: Measured) => `${(m.extraRss / MiB).toFixed(1)} MiB (${m.seconds.toFixed(2)} s)`;
    return [
      { name: '500 with a 50 MB body, client extra RSS', value: mib(error), target: '<= 16 MiB (64 KB read)', ok: error.extraRss <= 16 * MiB, miss: 'ABOVE' },
      { name: '200 ApiError with a 50 MB message, extra RSS', value: mib(apiError), target: '<= 16 MiB (64 KB read)', ok: apiError.extraRss <= 16 * MiB, miss: 'ABOVE' },
      { name: '65 MiB JSON past the 64 MiB limit, extra RSS', value: mib(json), target: '<= 100 MiB (held once)', ok: json.extraRss <= 100 * MiB, miss: 'ABOVE' },
    ];
  } finally {
    await api.close();
    server.stop();
  }
}

if (require.main === module) {
  answerFigures(measure).then(
    (figures) => printFigures(`Answers larger than needed (node ${process.version})`, figures),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
