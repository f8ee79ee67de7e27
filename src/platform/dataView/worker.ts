// The data view's worker thread (dist/dataViewWorker.js): one per open data view, it owns the file's
// source (dataSource.ts), so indexing, sorting, filtering and summaries never hold up the extension host.
// Answers WorkerRequests; while the file is being indexed it reports the row count now and then.
import { parentPort } from 'node:worker_threads';
import { CsvDataSource } from './dataSource';
import type { WorkerReply, WorkerRequest } from './protocol';

const COUNT_EVERY_MS = 250;
const port = parentPort;
if (!port) throw new Error('The data view worker must run in a worker thread.');
let source: CsvDataSource | undefined;
/** Settles when the extension says a growing file is whole (it may say so before the file is open here). */
let whole: (error?: Error) => void = () => undefined;
const completion = new Promise<Error | undefined>((resolve) => {
  whole = resolve;
});
const running = new Map<number, AbortController>();
const post = (reply: WorkerReply) => port.postMessage(reply);

function opened(): CsvDataSource {
  if (!source) throw new Error('No file is open in this data view.');
  return source;
}

async function answer(request: WorkerRequest): Promise<unknown> {
  const abort = new AbortController();
  running.set(request.id, abort);
  let reported = 0;
  const progress = (fraction: number) => {
    const now = Date.now();
    if (now - reported < 100 && fraction < 1) return;
    reported = now;
    post({ id: request.id, progress: fraction });
  };
  try {
    switch (request.method) {
      case 'open': {
        let last = 0;
        source = await CsvDataSource.open(
          request.args[0],
          () => {
            const now = Date.now();
            if (source && now - last >= COUNT_EVERY_MS) {
              last = now;
              post({ event: 'count', rowCount: source.rowCount() });
            }
          },
          { ...request.args[1], completion },
        );
        const s = source;
        void s.indexed.then(
          () => post({ event: 'count', rowCount: s.rowCount() }),
          (error: unknown) => post({ event: 'error', message: error instanceof Error ? error.message : String(error) }),
        );
        return { columns: s.columns, rowCount: s.rowCount(), rows: s.firstRows };
      }
      case 'complete':
        whole(request.args[0] === undefined ? undefined : new Error(request.args[0]));
        return undefined;
      case 'rowCount':
        return opened().rowCount();
      case 'rows':
        return await opened().rows(...request.args);
      case 'sort':
        return await opened().sort(request.args[0], progress, abort.signal);
      case 'filter':
        return await opened().filter(request.args[0], progress, abort.signal);
      case 'summary':
        return await opened().summary(request.args[0], progress, abort.signal);
      case 'distribution':
        return await opened().distribution(request.args[0], progress, abort.signal);
      case 'scatter':
        return await opened().scatter(request.args[0], request.args[1], progress, abort.signal);
      case 'cancel':
        running.get(request.args[0])?.abort();
        return undefined;
    }
  } finally {
    running.delete(request.id);
  }
}

port.on('message', (request: WorkerRequest) => {
  answer(request).then(
    (result) => post({ id: request.id, result }),
    (error: unknown) => post({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
