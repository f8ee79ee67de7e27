// The fault kit: a loopback HTTP server that answers each request as a test scripts it (a gateway's
// login page with status 200, error text where nothing was expected, a compressed file, an endless or
// trickling answer), recording what it was asked. Real HTTP, so the client's whole path runs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type DatagrokClient } from '../../src/api/client';
import { DatagrokError } from '../../src/api/errors';
import type { ClientOptions, ErrorKind } from '../../src/api/types';

export const KEY = 'kit-key-0123456789abcdef';

export interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: Buffer;
}

export type Answer = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export interface FaultKit {
  readonly baseUrl: string;
  readonly seen: Seen[];
  /** How the next requests are answered (the last set answer keeps answering). */
  answer(answer: Answer): void;
  client(options?: Partial<ClientOptions>): DatagrokClient;
  close(): Promise<void>;
}

/** Answers with a status, headers and a body. */
export function reply(status: number, body: string | Buffer, headers: Record<string, string> = {}): Answer {
  return (_req, res) => {
    res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };
}

export const LOGIN_PAGE = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form action="/sso/login">Corporate sign-in</form></body></html>';

export async function startKit(): Promise<FaultKit> {
  const seen: Seen[] = [];
  let current: Answer = reply(200, '');
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
    try {
      await current(req, res, body);
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const clients: DatagrokClient[] = [];
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    seen,
    answer(answer) {
      current = answer;
    },
    client(options = {}) {
      const c = createClient({ baseUrl: `http://127.0.0.1:${port}/api`, apiKey: KEY, retries: 0, ...options });
      clients.push(c);
      return c;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Awaits a DatagrokError of `kind` whose message matches, and never contains the key. */
export async function failsWith(promise: Promise<unknown>, kind: ErrorKind, message?: RegExp): Promise<DatagrokError> {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof DatagrokError)) throw err;
    if (err.kind !== kind) throw new Error(`expected kind ${kind}, got ${err.kind}: ${err.message}`);
    if (message && !message.test(err.message)) throw new Error(`message ${JSON.stringify(err.message)} does not match ${message}`);
    if (err.message.includes(KEY) || (err.serverMessage ?? '').includes(KEY)) throw new Error(`the key leaked: ${err.message}`);
    return err;
  }
  throw new Error(`expected a ${kind} error, but the call succeeded`);
}
