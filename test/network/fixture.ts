// What the API network tests share: emulators (HTTP and HTTPS) named by the test host name, the test
// certificates, clients made with given network settings, and the check that no message ever held the
// API key or a proxy password.
import * as assert from 'node:assert/strict';
import { createClient, type DatagrokClient } from '../../src/api/client';
import { DatagrokError } from '../../src/api/errors';
import type { NetworkOptions } from '../../src/api/network';
import type { ErrorKind } from '../../src/api/types';
import { type Emulator, startEmulator } from '../emulator/server';
import { makeCertificates, readPair, TEST_HOST, type TestCertificates } from './certs';
import { ensureTestHost } from './hosts';

export const SECRET = 'proxy-pass-7f3a';

export interface NetworkFixture {
  certs: TestCertificates;
  /** Serves HTTP on 127.0.0.1. */
  http: Emulator;
  /** Serves HTTPS with the good certificate (signed by the private authority). */
  https: Emulator;
  /** http://datagrok-test.internal:P/api — a name that is not loopback, so proxies apply. */
  httpUrl: string;
  httpsUrl: string;
  client(baseUrl: string, network?: NetworkOptions): DatagrokClient;
  /** Awaits a rejection with a DatagrokError of `kind` whose message matches. */
  fails(promise: Promise<unknown>, kind: ErrorKind, message: RegExp): Promise<DatagrokError>;
  /** An HTTPS emulator with another certificate pair (closed with the fixture). */
  httpsWith(pair: { cert: string; key: string }): Promise<Emulator>;
}

export function useNetworkFixture(): NetworkFixture {
  const f = {} as NetworkFixture;
  const clients: DatagrokClient[] = [];
  const extra: Emulator[] = [];
  const messages: string[] = [];
  let undoHost: () => void = () => undefined;

  f.client = (baseUrl, network) => {
    const client = createClient({ baseUrl, apiKey: f.http.key, retries: 0, timeouts: { connectMs: 5000, requestMs: 15000 }, network });
    clients.push(client);
    return client;
  };
  f.fails = async (promise, kind, message) => {
    try {
      await promise;
    } catch (err) {
      if (!(err instanceof DatagrokError)) throw err;
      messages.push(err.message);
      assert.equal(err.kind, kind, `kind of: ${err.message}`);
      assert.match(err.message, message);
      return err;
    }
    throw new Error(`expected a ${kind} error, but the call succeeded`);
  };
  f.httpsWith = async (pair) => {
    const emulator = await startEmulator({ tls: readPair(pair) });
    extra.push(emulator);
    return emulator;
  };

  before(async function () {
    this.timeout(60_000);
    undoHost = await ensureTestHost();
    f.certs = makeCertificates();
    f.http = await startEmulator();
    f.https = await startEmulator({ tls: readPair(f.certs.good) });
    f.httpUrl = `http://${TEST_HOST}:${f.http.port}/api`;
    f.httpsUrl = `https://${TEST_HOST}:${f.https.port}/api`;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await Promise.all([f.http?.close(), f.https?.close(), ...extra.map((e) => e.close())]);
    f.certs?.remove();
    undoHost();
    const leaked = messages.filter((m) => m.includes(SECRET) || m.includes('demo-key'));
    assert.deepEqual(leaked, [], 'no message holds the API key or a proxy password');
  });
  return f;
}

/** The paths (under /api) of the emulator's request log. */
export function requestPaths(emulator: Emulator): string[] {
  return emulator.state.log.map((e) => `${e.method} ${e.path}`);
}
