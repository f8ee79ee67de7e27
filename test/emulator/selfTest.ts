// What the emulator's own tests share (emulator.test.ts, emulatorFaults.test.ts): a fresh emulator per
// suite, reset before each test, and raw HTTP calls to it.
import * as assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import { type Emulator, startEmulator } from './server';

export const CHEMISTS = 'c0000000-0000-4000-8000-000000000001';
export const BOB_TO_CHEMISTS = 'e2000000-0000-4000-8000-000000000001';

/**
 * Registers the suite's hooks (an emulator on a free port, closed after the suite, reset before each
 * test) and returns it (`emu()`, once the suite's `before` has run) with calls to its API and control routes.
 */
export function emulatorUnderTest() {
  let emu: Emulator;

  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: string | Buffer | Readable, key: string | null = emu.key) {
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    const res = await request(`${emu.baseUrl}${path}`, { method, headers, body });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, bytes, text: bytes.toString('utf8') };
  }

  async function json(method: 'GET' | 'POST' | 'DELETE', path: string, body?: string) {
    const res = await call(method, path, body);
    assert.equal(res.status, 200, `${method} ${path} → ${res.status} ${res.text}`);
    return JSON.parse(res.text);
  }

  async function control(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown) {
    const res = await request(`${emu.origin}/__emulator/${route}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.body.text();
    assert.equal(res.statusCode, 200, text);
    return text ? JSON.parse(text) : undefined;
  }

  before(async () => {
    emu = await startEmulator({ port: 0 });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    await control('POST', 'reset');
  });

  return { emu: () => emu, call, json, control };
}
