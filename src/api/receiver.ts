// A response body received straight from undici's parser (dispatcher.dispatch with a handler), with no
// Readable in between: each socket chunk is handed to a sink (the file sink queues it for one writev, no
// copy), and no per-chunk stream machinery (buffering, 'data' events, pipe, drain) runs. Backpressure is
// the controller's pause()/resume(); a 1 GiB download costs ~16k cheap calls instead of ~16k stream hops.
import type { Dispatcher } from 'undici';

/** Error bodies and bodies peeked for an ApiError are read up to this size. */
export const SMALL_BODY = 64 * 1024;

export interface BodyInfo {
  contentType?: string;
  contentLength?: number;
  contentEncoding?: string;
}

/** Given to a sink: resume a paused response, or fail it (the request is aborted with that error). */
export interface SinkControl {
  resume(): void;
  fail(error: Error): void;
  /**
   * The chunks are views of one read buffer that is reused once write() returns (wire.ts): the sink must
   * be done with each chunk before it returns, keeping none.
   */
  readonly transient: boolean;
}

export interface ChunkSink {
  /**
   * Takes `chunk`. From undici, a view of a buffer Node allocated for one socket read (or undici
   * concatenated) and never reuses, so a sink may keep it without copying; when `control.transient`, a view
   * valid only during the call. false: pause until `control.resume()`.
   */
  write(chunk: Buffer): boolean;
}

export interface ReceiveHooks {
  /** A 2xx response without an api-error header: where its body goes. */
  open(info: BodyInfo, control: SinkControl): ChunkSink;
  /** The first body data reached the sink (from now on the request must not be retried). */
  commit(): void;
  /** A small JSON/text body, read whole: an Error when it is an ApiError. */
  checkSmallBody(text: string, status: number): Error | undefined;
  /** Refuses a 2xx answer from its headers alone (e.g. an encoding never asked for), before any data. */
  checkHeaders?(info: BodyInfo, status: number): Error | undefined;
}

/** How a response ended that was not streamed into a sink: its status, headers and (small) body text. */
export interface ErrorResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

type Headers = Record<string, string | string[] | undefined>;
type Mode = 'error' | 'peek' | 'pass';

/**
 * A dispatch handler (undici's controller API). Resolves with undefined once the whole body went to the
 * sink, with an ErrorResponse for a non-2xx status or an api-error header, and rejects on transport
 * errors, cancellation, a sink failure, or an ApiError found in a small body.
 */
export class Receiver implements Dispatcher.DispatchHandler {
  readonly done: Promise<ErrorResponse | undefined>;
  private resolve!: (value: ErrorResponse | undefined) => void;
  private reject!: (error: Error) => void;
  private controller: Dispatcher.DispatchController | undefined;
  private mode: Mode = 'pass';
  private sink: ChunkSink | undefined;
  /** The response status once headers arrived (for the request log). */
  status: number | undefined;
  private headers: Headers = {};
  private info: BodyInfo = {};
  /** Copies of the first chunks: an error body, or a small JSON/text body checked for an ApiError. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private committed = false;
  private finished = false;
  private failure: Error | undefined;
  private readonly onAbort = () => this.abort(this.signal?.reason instanceof Error ? this.signal.reason : new Error('aborted'));

  /** `transientChunks`: the dispatcher reuses its read buffer after each onResponseData (wire.ts). */
  constructor(
    private readonly hooks: ReceiveHooks,
    private readonly signal?: AbortSignal,
    private readonly transientChunks = false,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.failure) controller.abort(this.failure);
    else if (this.signal?.aborted) this.onAbort();
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: Headers): void {
    this.status = status;
    this.headers = headers;
    this.info = bodyInfo(headers);
    if (status < 200 || status >= 300 || headers['api-error'] !== undefined) this.mode = 'error';
    else {
      this.mode = 'peek'; // decided on the first data: only a small JSON/text body is held
      const refused = this.hooks.checkHeaders?.(this.info, status);
      if (refused) this.abort(refused);
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.failure) return;
    if (this.mode === 'pass') {
      if (this.sink?.write(chunk) === false) controller.pause();
      return;
    }
    if (this.mode === 'peek' && this.heldBytes === 0 && !mayBeApiError(this.info, chunk)) {
      this.mode = 'pass';
      this.forward(chunk);
      return;
    }
    // Held: an error body (kept up to SMALL_BODY, the rest is dropped) or a possible ApiError.
    if (this.heldBytes <= SMALL_BODY) {
      this.held.push(Buffer.from(chunk));
      this.heldBytes += chunk.length;
    }
    if (this.mode === 'peek' && this.heldBytes > SMALL_BODY) {
      // Too large to be an ApiError: it is content.
      this.mode = 'pass';
      this.forward(this.takeHeld());
    }
  }

  onResponseEnd(): void {
    this.cleanup();
    if (this.failure) this.reject(this.failure);
    else if (this.mode === 'error') {
      this.resolve({ status: this.status ?? 0, headers: this.headers, text: this.takeHeld().subarray(0, SMALL_BODY).toString('utf8') });
    } else {
      const apiError = this.heldBytes > 0 ? this.finishPeek() : undefined;
      if (!apiError && !this.sink) this.open(); // an empty body still reaches its (empty) target
      if (apiError) this.reject(apiError);
      else this.resolve(undefined);
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.cleanup();
    this.reject(this.failure ?? error);
  }

  /** The request could not even be dispatched. */
  abandon(error: Error): void {
    this.cleanup();
    this.reject(error);
  }

  /** The whole body was held: an ApiError, or content for the sink. */
  private finishPeek(): Error | undefined {
    const body = this.takeHeld();
    const apiError = this.hooks.checkSmallBody(body.toString('utf8'), this.status ?? 0);
    if (!apiError) this.forward(body);
    return apiError;
  }

  private forward(chunk: Buffer): void {
    const sink = this.sink ?? this.open();
    if (!this.committed) {
      this.committed = true;
      this.hooks.commit();
    }
    if (sink.write(chunk) === false) this.controller?.pause();
  }

  private open(): ChunkSink {
    this.sink = this.hooks.open(this.info, {
      resume: () => this.controller?.resume(),
      fail: (error) => this.abort(error),
      transient: this.transientChunks,
    });
    return this.sink;
  }

  private abort(error: Error): void {
    if (this.finished) return; // e.g. a file write failing after the last byte arrived: nothing to stop
    this.failure ??= error;
    this.controller?.abort(error);
  }

  private takeHeld(): Buffer {
    const all = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    return all;
  }

  private cleanup(): void {
    this.finished = true;
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}

/** Only a small JSON/text body that starts like JSON might be an ApiError; file content never is scanned. */
export function mayBeApiError(info: BodyInfo, first: Uint8Array): boolean {
  if (info.contentLength !== undefined && info.contentLength > SMALL_BODY) return false;
  const ct = (info.contentType ?? '').toLowerCase();
  if (!ct.includes('json') && !ct.startsWith('text/')) return false;
  for (const byte of first) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b /* { */ || byte === 0x22 /* " */;
  }
  return false;
}

export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

export function numberHeader(headers: Headers, name: string): number | undefined {
  const v = header(headers, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** What the headers of an answer say about its body. */
export function bodyInfo(headers: Headers): BodyInfo {
  return {
    contentType: header(headers, 'content-type'),
    contentLength: numberHeader(headers, 'content-length'),
    contentEncoding: header(headers, 'content-encoding'),
  };
}
