// Requests exactly as Datagrok's own clients send them (../shared/notes/real-clients.md), over real HTTP
// to an emulator started in-process: the Python package `datagrok-api` and the grok CLI (`grok s`).
import * as assert from 'node:assert/strict';
import { type Emulator, startEmulator } from '../emulator/server';

/** A JSON object as the clients' parsers read it: field by field, without a schema. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read key by key, the way the real clients' parsers do
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (fails the test when it is not JSON). */
  json<T = Json>(): T;
}

export interface CallOptions {
  query?: Record<string, string | boolean | number>;
  /** A JSON body (sent with `Content-Type: application/json`). */
  json?: unknown;
  /** A raw body with its own content type. */
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

/** Python writes booleans with str(): `True` / `False`. */
function pythonValue(v: string | boolean | number): string {
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v);
}

async function send(url: string, method: string, headers: Record<string, string>, options: CallOptions, pyBooleans: boolean): Promise<Answer> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(options.query ?? {})) u.searchParams.set(k, pyBooleans ? pythonValue(v) : String(v));
  const body = options.json !== undefined ? JSON.stringify(options.json) : options.body;
  const all: Record<string, string> = { ...headers, ...options.headers };
  if (options.contentType) all['Content-Type'] = options.contentType;
  const res = await fetch(u, { method, headers: all, body });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json<T>() {
      try {
        return JSON.parse(text) as T;
      } catch {
        assert.fail(`${method} ${u.pathname} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
      }
    },
  };
}

/**
 * The Python client (old and new generations): `Authorization` exactly as the user gave the key (with
 * `Bearer `), `Content-Type: application/json` on every request, even GETs, unless a call sets its own.
 */
export function python(emu: Emulator): Call {
  return (method, path, options = {}) => send(`${emu.baseUrl}${path}`, method, { Authorization: `Bearer ${emu.key}`, 'Content-Type': 'application/json' }, options, true);
}

/**
 * The grok CLI: trades the developer key for a session token first (`POST /api/users/login/dev` with
 * `Authorization: Dev <key>`), then sends `Authorization: <token>` (no `Bearer `) on every call.
 */
export async function grok(emu: Emulator): Promise<Call> {
  const res = await fetch(`${emu.baseUrl}/users/login/dev`, { method: 'POST', headers: { Authorization: `Dev ${emu.key}` } });
  assert.equal(res.status, 200, 'Login failed');
  const { token } = (await res.json()) as { token: string };
  assert.equal(typeof token, 'string', 'the login answers {token}');
  return (method, path, options = {}) => send(`${emu.baseUrl}${path}`, method, { Authorization: token, 'Content-Type': 'application/json' }, options, false);
}

/** One emulator per test file, reset before each test; `emu()` is the running one. */
export function useEmulator(): () => Emulator {
  let emu: Emulator | undefined;
  before(async () => {
    emu = await startEmulator({ port: 0 });
  });
  after(async () => {
    await emu?.close();
  });
  beforeEach(async () => {
    await emu?.reset();
  });
  return () => {
    if (!emu) throw new Error('the emulator has not started');
    return emu;
  };
}

/** Sets emulator config through its control route. */
export async function configure(emu: Emulator, patch: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${emu.origin}/__emulator/config`, { method: 'POST', body: JSON.stringify(patch) });
  assert.equal(res.status, 200, await res.text());
}

export const ID = {
  demo: 'd0000000-0000-4000-8000-000000000001',
  alice: 'd0000000-0000-4000-8000-000000000002',
  bob: 'd0000000-0000-4000-8000-000000000003',
  chemists: 'c0000000-0000-4000-8000-000000000001',
  biologists: 'c0000000-0000-4000-8000-000000000003',
  demogTable: 'b0000000-0000-4000-8000-000000000001',
} as const;
