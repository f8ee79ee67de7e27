// The Chrome DevTools Protocol over the pipe a Chromium browser opens with `--remote-debugging-pipe`
// (its fd 3 reads commands, its fd 4 writes answers and events; each message is JSON ended by a NUL byte).
// No port is opened, so nothing else on the machine can drive the browser. Only what signing a browser
// profile in needs: commands (on the browser or a page's flat session) and events.
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export class CdpPipe {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(result: Record<string, unknown>): void; reject(error: Error): void }>();
  private readonly listeners = new Set<(method: string, params: Record<string, unknown>, sessionId?: string) => void>();
  private closedBecause: Error | undefined;

  private readonly out: Writable;

  constructor(child: ChildProcess) {
    const write = child.stdio[3] as Writable | null;
    const read = child.stdio[4] as Readable | null;
    if (!write || !read) throw new Error('the browser was started without its DevTools pipe');
    this.out = write;
    let chunks: Buffer[] = [];
    read.on('data', (data: Buffer) => {
      let start = 0;
      for (let end = data.indexOf(0); end >= 0; end = data.indexOf(0, start)) {
        chunks.push(data.subarray(start, end));
        this.dispatch(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message);
        chunks = [];
        start = end + 1;
      }
      if (start < data.length) chunks.push(data.subarray(start));
    });
    write.on('error', () => undefined);
    read.on('error', () => undefined);
    child.on('exit', (code, signal) => this.fail(new Error(`the browser exited (${signal ?? `code ${code}`})`)));
    child.on('error', (error) => this.fail(error));
  }

  private dispatch(m: Message): void {
    if (m.id !== undefined) {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) waiting?.reject(new Error(m.error.message));
      else waiting?.resolve(m.result ?? {});
    } else if (m.method) for (const listener of this.listeners) listener(m.method, m.params ?? {}, m.sessionId);
  }

  private fail(error: Error): void {
    this.closedBecause ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    if (this.closedBecause) return Promise.reject(this.closedBecause);
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: Record<string, unknown>) => void, reject });
      this.out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  on(listener: (method: string, params: Record<string, unknown>, sessionId?: string) => void): void {
    this.listeners.add(listener);
  }
}
