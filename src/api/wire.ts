// Downloads into a file on a direct plain-HTTP route go over a connection of their own, read by this
// module instead of undici. Measured on the 2-core machine (test/bench/transfer.ts): undici's path costs
// about 3 s of CPU per GiB against curl's 1 s and ran at 0.5× curl; this one reads each socket read into
// one reused buffer (net's `onread`: no allocation, no stream machinery per read) that the file sink
// writes out before the next read, as curl does, and runs at curl's pace with no memory growth.
//
// It drives the same dispatch handler as undici (receiver.ts: onRequestStart, onResponseStart,
// onResponseData, onResponseEnd, onResponseError, and a controller with pause/resume/abort), so the
// checks, the ApiError peek, the retries and the failure messages are the same on both paths. Chunks it
// hands on are views of the reused buffer, valid only during the call (Receiver's `transientChunks`).
// Errors carry the codes undici and net use (UND_ERR_*, HPE_*, ECONN*), which failures.ts classifies.
// HTTPS and proxied routes stay on undici (TLS costs more than the parsing; the tunnel is undici's).
import * as net from 'node:net';
import type { Dispatcher } from 'undici';
import { ChunkedDecoder, type Framing, framing, MAX_HEAD_BYTES, parseHead, WireError } from './wireParser';

/** One socket read: large enough for few reads per MiB, small enough to stay in the CPU's cache. */
const READ_BUFFER_BYTES = 256 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');

export type WireOptions = Pick<Dispatcher.DispatchOptions, 'method' | 'path' | 'headers'> & { headersTimeout?: number | null; bodyTimeout: number };

export class WireDispatcher {
  private readonly exchanges = new Set<Exchange>();
  private closed = false;
  private idle: (() => void) | undefined;

  constructor(
    private readonly target: URL,
    private readonly connectMs: number,
  ) {
    if (target.protocol !== 'http:') throw new Error('WireDispatcher: plain http only');
  }

  /** Sends one request without a body; the response goes to `handler` (errors too, never thrown). */
  dispatch(options: WireOptions, handler: Dispatcher.DispatchHandler): void {
    const exchange = new Exchange(this.target, this.connectMs, options, handler, () => {
      this.exchanges.delete(exchange);
      if (this.exchanges.size === 0) this.idle?.();
    });
    this.exchanges.add(exchange);
    if (this.closed) exchange.refuse(new WireError('UND_ERR_CLOSED', 'the client was closed'));
    else exchange.start();
  }

  /** As undici's Agent.close(): takes no new request and resolves once those running have ended. */
  close(): Promise<void> {
    this.closed = true;
    if (this.exchanges.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = resolve;
    });
  }
}

type Phase = 'connecting' | 'head' | 'body' | 'done';

class Exchange implements Dispatcher.DispatchController {
  private socket: net.Socket | undefined;
  private phase: Phase = 'connecting';
  private head: Buffer[] = [];
  private body: Framing = { kind: 'none' };
  private left = 0;
  private chunked: ChunkedDecoder | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failure: Error | null = null;
  private isPaused = false;

  constructor(
    private readonly target: URL,
    private readonly connectMs: number,
    private readonly options: WireOptions,
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly ended: () => void,
  ) {}

  get aborted(): boolean {
    return this.failure !== null;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  get reason(): Error | null {
    return this.failure;
  }

  abort(reason: Error): void {
    this.fail(reason);
  }

  pause(): void {
    if (this.phase === 'done' || this.isPaused) return;
    this.isPaused = true;
    this.clearTimer();
    this.socket?.pause();
  }

  resume(): void {
    if (this.phase === 'done' || !this.isPaused) return;
    this.isPaused = false;
    this.arm(this.options.bodyTimeout, 'UND_ERR_BODY_TIMEOUT', 'the body stalled');
    this.socket?.resume();
  }

  /** Fails at once, after the handler got its controller (the dispatcher is closed). */
  refuse(error: Error): void {
    this.handler.onRequestStart?.(this, {});
    this.fail(error);
  }

  start(): void {
    this.handler.onRequestStart?.(this, {});
    if (this.phase === 'done') return; // aborted at once (e.g. an already-cancelled signal)
    let request: string;
    try {
      request = requestHead(this.target, this.options);
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    const port = Number(this.target.port) || 80;
    const host = this.target.hostname.replace(/^\[(.*)\]$/, '$1');
    this.arm(this.connectMs, 'UND_ERR_CONNECT_TIMEOUT', 'connect timed out');
    const socket = net.connect({ host, port, noDelay: true, onread: { buffer: readBuffer, callback: (n, buf) => this.read(buf as Buffer, n) } });
    this.socket = socket;
    socket.once('connect', () => {
      if (this.phase !== 'connecting') return;
      this.phase = 'head';
      this.arm(this.options.headersTimeout ?? this.options.bodyTimeout, 'UND_ERR_HEADERS_TIMEOUT', 'no answer');
      socket.write(request);
    });
    socket.on('error', (err) => this.fail(err));
    socket.once('end', () => this.eof());
    socket.once('close', () => this.eof());
  }

  /** One socket read of `n` bytes in `buf` (reused for the next read). false pauses the socket. */
  private read(buf: Buffer, n: number): boolean {
    try {
      let at = 0;
      if (this.phase === 'head') at = this.readHead(buf, n);
      if (this.phase === 'body' && at < n) this.readBody(buf, at, n);
    } catch (err) {
      this.fail(err as Error);
      return false;
    }
    if (this.phase === 'body') this.timer?.refresh();
    return !this.isPaused && this.phase !== 'done';
  }

  /** Collects the head (copied: it is small); returns where the body starts in `buf`, or `n`. */
  private readHead(buf: Buffer, n: number): number {
    this.head.push(Buffer.from(buf.subarray(0, n)));
    for (;;) {
      const all = this.head.length === 1 ? this.head[0] : Buffer.concat(this.head);
      const end = all.indexOf(HEAD_END);
      if ((end < 0 ? all.length : end) > MAX_HEAD_BYTES) throw new WireError('UND_ERR_HEADERS_OVERFLOW', 'the response head is too large');
      if (end < 0) {
        this.head = [all];
        return n;
      }
      const head = parseHead(all.subarray(0, end).toString('latin1'));
      const rest = all.subarray(end + HEAD_END.length);
      if (head.status < 200) {
        // 100 Continue, 103 Early Hints: informational, the real answer follows.
        this.head = rest.length > 0 ? [rest] : [];
        if (rest.length === 0) return n;
        continue;
      }
      this.head = [];
      this.body = framing(this.options.method, head);
      this.left = this.body.kind === 'length' ? this.body.bytes : 0;
      this.chunked = this.body.kind === 'chunked' ? new ChunkedDecoder() : undefined;
      this.phase = 'body';
      this.arm(this.options.bodyTimeout, 'UND_ERR_BODY_TIMEOUT', 'the body stalled');
      this.handler.onResponseStart?.(this, head.status, head.headers, head.statusText);
      if (this.phase !== 'body') return n; // aborted by the handler
      if (this.body.kind === 'none') {
        this.finish();
        return n;
      }
      // The body's first bytes came with the head: hand them on (copied above, so not transient).
      if (rest.length > 0) this.readBody(rest, 0, rest.length);
      return n;
    }
  }

  private readBody(buf: Buffer, from: number, to: number): void {
    switch (this.body.kind) {
      case 'length': {
        const end = Math.min(to, from + this.left);
        this.left -= end - from;
        this.data(buf, from, end);
        if (this.left === 0) this.finish();
        break;
      }
      case 'chunked': {
        const decoder = this.chunked as ChunkedDecoder;
        decoder.push(buf, from, to, (b, s, e) => this.data(b, s, e));
        if (decoder.done && this.phase === 'body') this.finish();
        break;
      }
      case 'close':
        this.data(buf, from, to);
        break;
    }
  }

  private data(buf: Buffer, from: number, to: number): void {
    if (from < to && this.phase === 'body') this.handler.onResponseData?.(this, buf.subarray(from, to));
  }

  private eof(): void {
    if (this.phase === 'done') return;
    if (this.phase === 'body' && this.body.kind === 'close') this.finish();
    else if (this.phase === 'body' && this.body.kind === 'length') {
      this.fail(new WireError('UND_ERR_RES_CONTENT_LENGTH_MISMATCH', `the connection closed ${this.left} bytes before the end of the body`));
    } else this.fail(new WireError('UND_ERR_SOCKET', 'other side closed'));
  }

  private finish(): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    this.stop();
    this.handler.onResponseEnd?.(this, {});
  }

  fail(error: Error): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    this.failure = error;
    this.stop();
    this.handler.onResponseError?.(this, error);
  }

  private stop(): void {
    this.clearTimer();
    this.head = [];
    // Connection: close was asked for; nothing is reused.
    this.socket?.destroy();
    this.ended();
  }

  private arm(ms: number, code: string, message: string): void {
    this.clearTimer();
    this.timer = setTimeout(() => this.fail(new WireError(code, message)), ms);
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** The request's head: no body, a connection of its own. Header values never carry a line break. */
function requestHead(target: URL, options: WireOptions): string {
  const lines = [`${options.method} ${options.path} HTTP/1.1`, `host: ${target.host}`];
  const headers = options.headers;
  if (headers && (Array.isArray(headers) || Symbol.iterator in headers)) throw new Error('WireDispatcher: headers must be a plain object');
  for (const [name, value] of Object.entries(headers ?? {})) {
    const text = String(value);
    if (/[\r\n]/.test(name) || /[\r\n]/.test(text)) throw new WireError('ERR_INVALID_CHAR', `invalid character in the ${name} header`);
    lines.push(`${name}: ${text}`);
  }
  lines.push('connection: close', '', '');
  return lines.join('\r\n');
}
