// Shared setup of the API tests: one emulator per test file (real HTTP), a fresh client per test.
import { createHash } from 'node:crypto';
import { createClient, type DatagrokClient } from '../../src/api/client';
import { DatagrokError } from '../../src/api/errors';
import type { ClientOptions, ErrorKind, RequestLogEntry } from '../../src/api/types';
import { type Emulator, startEmulator } from '../emulator/server';

export const IDS = {
  demo: 'd0000000-0000-4000-8000-000000000001',
  alice: 'd0000000-0000-4000-8000-000000000002',
  allUsers: 'a4b45840-9a50-11e6-9cc9-8546b8bf62e6',
  developers: 'ba9cd191-9a50-11e6-9cc9-910bf827f0ab',
  chemists: 'c0000000-0000-4000-8000-000000000001',
  dataScience: 'c0000000-0000-4000-8000-000000000002',
  biologists: 'c0000000-0000-4000-8000-000000000003',
  bobToChemists: 'e2000000-0000-4000-8000-000000000001',
  carolToChemists: 'e2000000-0000-4000-8000-000000000002',
  demogTable: 'b0000000-0000-4000-8000-000000000001',
} as const;

export interface EmulatorRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  authorized: boolean;
}

export interface Harness {
  emulator: Emulator;
  client: DatagrokClient;
  /** The client's onRequest entries of the current test. */
  log: RequestLogEntry[];
  /** Every DatagrokError message seen through `fails`, for the "never the key" check. */
  messages: string[];
  control<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  config(patch: Record<string, unknown>): Promise<void>;
  fault(fault: Record<string, unknown>): Promise<void>;
  requests(): Promise<EmulatorRequest[]>;
  state(): Promise<EmulatorStateSnapshot>;
  newClient(options?: Partial<ClientOptions>): DatagrokClient;
  /** Awaits a rejection with a DatagrokError of `kind`. */
  fails(promise: Promise<unknown>, kind: ErrorKind, message?: RegExp): Promise<DatagrokError>;
}

export interface EmulatorStateSnapshot {
  tables: Array<{ ID: string; name: string; fullName: string; project: string; bytes: number; sha256: string }>;
  projects: Array<{ ID: string; name: string; tableIds: string[] }>;
  dashboards: Array<{ ID: string; name: string; tableIds: string[]; layout: unknown; shares: Array<{ group: string; groupName: string; access: string }> }>;
  files: Array<{ connector: string; path: string; bytes: number; sha256: string }>;
  requests: Array<{ id: string; approved: boolean | null }>;
  groups: Array<{ id: string; name: string }>;
}

export function useEmulator(defaults: Partial<ClientOptions> = {}): Harness {
  const clients: DatagrokClient[] = [];
  const h = { log: [] as RequestLogEntry[], messages: [] as string[] } as Harness;

  h.control = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${h.emulator.origin}/__emulator/${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator control ${method} ${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  h.config = async (patch) => {
    await h.control('POST', 'config', patch);
  };
  h.fault = async (fault) => {
    await h.control('POST', 'faults', fault);
  };
  h.requests = () => h.control<EmulatorRequest[]>('GET', 'requests');
  h.state = () => h.control<EmulatorStateSnapshot>('GET', 'state');
  h.newClient = (options = {}) => {
    const client = createClient({
      baseUrl: h.emulator.baseUrl,
      apiKey: h.emulator.key,
      retryBaseDelayMs: 10,
      onRequest: (e) => h.log.push(e),
      ...defaults,
      ...options,
    });
    clients.push(client);
    return client;
  };
  h.fails = async (promise, kind, message) => {
    try {
      await promise;
    } catch (err) {
      if (!(err instanceof DatagrokError)) throw err;
      h.messages.push(err.message, err.serverMessage ?? '');
      if (err.kind !== kind) throw new Error(`expected kind ${kind}, got ${err.kind}: ${err.message}`);
      if (message && !message.test(err.message)) throw new Error(`message ${JSON.stringify(err.message)} does not match ${message}`);
      return err;
    }
    throw new Error(`expected a ${kind} error, but the call succeeded`);
  };

  before(async () => {
    h.emulator = await startEmulator({ port: 0 });
  });
  beforeEach(async () => {
    await h.control('POST', 'reset');
    h.log.length = 0;
    h.client = h.newClient();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await h.emulator?.close();
    const leaked = h.messages.filter((m) => m.includes(h.emulator.key));
    if (leaked.length > 0) throw new Error(`the API key appeared in error messages: ${leaked.join(' | ')}`);
  });
  return h;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
