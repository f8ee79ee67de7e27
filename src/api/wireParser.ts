// HTTP/1.1 response framing for wire.ts, with no socket: the head (status line and headers), how the
// body is delimited (Content-Length, chunked, until close, none), and a chunked-body decoder that works
// across reads without copying the data. Malformed input throws a WireError with the code Node's own
// HTTP parser would give (HPE_*), which failures.ts reports as an interrupted connection.

export type Headers = Record<string, string | string[]>;

export interface ResponseHead {
  status: number;
  statusText: string;
  headers: Headers;
}

/** An error with a code, like the socket's and undici's, so failures.ts classifies it. */
export class WireError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Longest response head accepted (Node's default is 16 KiB; undici's 16 KiB too). */
export const MAX_HEAD_BYTES = 64 * 1024;

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Parses a response head: the bytes before the blank line, as latin1 text. */
export function parseHead(text: string): ResponseHead {
  const lines = text.split('\r\n');
  const status = STATUS_LINE.exec(lines[0]);
  if (!status) throw new WireError('HPE_INVALID_CONSTANT', `not an HTTP/1.1 status line: ${JSON.stringify(lines[0].slice(0, 40))}`);
  const headers: Headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name)) throw new WireError('HPE_INVALID_HEADER_TOKEN', `a malformed header line: ${JSON.stringify(line.slice(0, 40))}`);
    const key = name.toLowerCase();
    const value = line.slice(colon + 1).trim();
    const had = headers[key];
    headers[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return { status: Number(status[1]), statusText: status[2] ?? '', headers };
}

export type Framing = { kind: 'none' } | { kind: 'length'; bytes: number } | { kind: 'chunked' } | { kind: 'close' };

/** How the body of this response ends (RFC 9112 §6.3). */
export function framing(method: string, head: ResponseHead): Framing {
  if (method === 'HEAD' || head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) return { kind: 'none' };
  const encoding = head.headers['transfer-encoding'];
  if (encoding !== undefined) {
    const codings = (Array.isArray(encoding) ? encoding.join(',') : encoding).toLowerCase().split(',').map((c) => c.trim());
    if (codings[codings.length - 1] === 'chunked') {
      if (codings.length > 1) throw new WireError('HPE_INVALID_TRANSFER_ENCODING', `a transfer coding this client does not decode: ${codings.join(', ')}`);
      return { kind: 'chunked' };
    }
    return { kind: 'close' };
  }
  const length = head.headers['content-length'];
  if (length === undefined) return { kind: 'close' };
  const values = new Set((Array.isArray(length) ? length.join(',') : length).split(',').map((v) => v.trim()));
  const [only] = values;
  const bytes = Number(only);
  if (values.size !== 1 || !/^\d+$/.test(only) || !Number.isSafeInteger(bytes)) {
    throw new WireError('HPE_UNEXPECTED_CONTENT_LENGTH', `an invalid Content-Length: ${JSON.stringify(String(length).slice(0, 40))}`);
  }
  return bytes === 0 ? { kind: 'none' } : { kind: 'length', bytes };
}

type ChunkedState = 'size' | 'extension' | 'sizeLf' | 'data' | 'dataCr' | 'dataLf' | 'trailer' | 'trailerLf' | 'done';

/**
 * Decodes a chunked body (RFC 9112 §7.1) fed in arbitrary pieces. Data is handed on as views of the
 * input (no copy); chunk extensions and trailers are skipped.
 */
export class ChunkedDecoder {
  private state: ChunkedState = 'size';
  private size = 0;
  private sizeDigits = 0;
  private left = 0;
  private trailerLineEmpty = true;

  get done(): boolean {
    return this.state === 'done';
  }

  /** Feeds `buf[start, end)`; `data` receives the body's bytes. Returns where the body ended, or `end`. */
  push(buf: Buffer, start: number, end: number, data: (buf: Buffer, start: number, end: number) => void): number {
    let i = start;
    while (i < end && this.state !== 'done') {
      if (this.state === 'data') {
        const take = Math.min(this.left, end - i);
        data(buf, i, i + take);
        i += take;
        this.left -= take;
        if (this.left === 0) this.state = 'dataCr';
        continue;
      }
      const byte = buf[i++];
      switch (this.state) {
        case 'size': {
          const digit = hexValue(byte);
          if (digit >= 0) {
            this.size = this.size * 16 + digit;
            if (++this.sizeDigits > 13) throw new WireError('HPE_INVALID_CHUNK_SIZE', 'a chunk size too large');
          } else if (this.sizeDigits > 0 && (byte === 0x3b /* ; */ || byte === 0x20 || byte === 0x09)) this.state = 'extension';
          else if (this.sizeDigits > 0 && byte === 0x0d) this.state = 'sizeLf';
          else throw new WireError('HPE_INVALID_CHUNK_SIZE', 'a malformed chunk size');
          break;
        }
        case 'extension':
          if (byte === 0x0d) this.state = 'sizeLf';
          break;
        case 'sizeLf':
          if (byte !== 0x0a) throw new WireError('HPE_STRICT', 'a chunk size line not ended by CRLF');
          this.left = this.size;
          this.state = this.size === 0 ? 'trailer' : 'data';
          this.size = 0;
          this.sizeDigits = 0;
          this.trailerLineEmpty = true;
          break;
        case 'dataCr':
          if (byte !== 0x0d) throw new WireError('HPE_STRICT', 'chunk data not followed by CRLF');
          this.state = 'dataLf';
          break;
        case 'dataLf':
          if (byte !== 0x0a) throw new WireError('HPE_STRICT', 'chunk data not followed by CRLF');
          this.state = 'size';
          break;
        case 'trailer':
          if (byte === 0x0d) this.state = 'trailerLf';
          else this.trailerLineEmpty = false;
          break;
        case 'trailerLf':
          if (byte !== 0x0a) throw new WireError('HPE_STRICT', 'a trailer line not ended by CRLF');
          if (this.trailerLineEmpty) this.state = 'done';
          else {
            this.state = 'trailer';
            this.trailerLineEmpty = true;
          }
          break;
      }
    }
    return i;
  }
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}
