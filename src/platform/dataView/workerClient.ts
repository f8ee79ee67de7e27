// The extension's side of a data view's worker thread: calls its methods and hears its progress and row
// counts. Pure Node: no vscode.
import { Worker } from 'node:worker_threads';
import type { RowCount, WorkerMethods, WorkerReply, WorkerRequest } from './protocol';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (fraction: number) => void;
}

export class DataSourceClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failed: Error | undefined;
  /** Hears the row count while the file is read. */
  onCount: ((rowCount: RowCount) => void) | undefined;
  /** Hears that reading the file failed (a download that stopped). */
  onError: ((message: string) => void) | undefined;

  constructor(workerFile: string) {
    this.worker = new Worker(workerFile);
    this.worker.on('message', (reply: WorkerReply) => this.receive(reply));
    this.worker.on('error', (error) => this.fail(new Error(`The data view's reader stopped: ${error.message}`)));
    this.worker.on('exit', () => this.fail(new Error("The data view's reader was closed.")));
  }

  private receive(reply: WorkerReply): void {
    if ('event' in reply) {
      if (reply.event === 'count') this.onCount?.(reply.rowCount);
      else this.onError?.(reply.message);
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if ('progress' in reply) {
      pending.onProgress?.(reply.progress);
      return;
    }
    this.pending.delete(reply.id);
    if ('error' in reply) pending.reject(new Error(reply.error));
    else pending.resolve(reply.result);
  }

  private fail(error: Error): void {
    this.failed ??= error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  /** Calls a worker method; `signal` cancels it (the promise rejects with the worker's "aborted" error). */
  call<M extends keyof WorkerMethods>(
    method: M,
    args: Parameters<WorkerMethods[M]>,
    onProgress?: (fraction: number) => void,
    signal?: AbortSignal,
  ): Promise<ReturnType<WorkerMethods[M]>> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise<ReturnType<WorkerMethods[M]>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      this.worker.postMessage({ id, method, args } as WorkerRequest);
      signal?.addEventListener('abort', () => this.worker.postMessage({ id: this.nextId++, method: 'cancel', args: [id] } as WorkerRequest), { once: true });
    });
  }

  async dispose(): Promise<void> {
    this.failed ??= new Error('The data view was closed.');
    await this.worker.terminate();
  }
}
