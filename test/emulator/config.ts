// Switchable server behaviours (POST /__emulator/config) and injected faults (POST /__emulator/faults).
import { ApiError } from './http';

export type Generation = 'old' | 'new' | 'both';

export interface EmulatorConfig {
  /** old = only reference routes, new = current routes only (reference call, user/group and dashboard shares GET 404), both. */
  generation: Generation;
  /** Errors answered as HTTP 200 with an ApiError body, as many real servers do. */
  errorsAsHttp200: boolean;
  /** With errorsAsHttp200, also set the `api-error: true` header. */
  apiErrorHeader: boolean;
  /** ApiError body JSON-encoded as a string, Content-Type text/plain. */
  errorBodyAsJsonString: boolean;
  /** The listing route and the connections route exist. */
  listing: boolean;
  /** DELETE /public/v1/files/... exists. */
  deleteFiles: boolean;
  /** Added to every non-control request. */
  latencyMs: number;
  /** File and table downloads without Content-Length (chunked), as some servers and proxies send them. */
  chunkedDownloads: boolean;
  /** `reference`: creation results `{ID, name, Markup, URL}`; `variant`: `{id, "Grok name", url, markup}`. */
  creationResultKeys: CreationResultKeys;
  /** `apiError`: ApiError bodies; `error`: `{"error": "…"}`; `text`: the message as plain text (both with the real status). */
  errorShape: ErrorShape;
  /** File paths match whatever their case, as on SMB and most cloud shares: a write keeps the stored name's case. */
  caseInsensitivePaths: boolean;
}

export type CreationResultKeys = 'reference' | 'variant';
export type ErrorShape = 'apiError' | 'error' | 'text';

export function defaultConfig(): EmulatorConfig {
  return {
    generation: 'both',
    errorsAsHttp200: false,
    apiErrorHeader: true,
    errorBodyAsJsonString: false,
    listing: true,
    deleteFiles: true,
    latencyMs: 0,
    chunkedDownloads: false,
    creationResultKeys: 'reference',
    errorShape: 'apiError',
    caseInsensitivePaths: false,
  };
}

/** Merges a partial config after checking every key and type; unknown keys are a 400. */
export function mergeConfig(config: EmulatorConfig, patch: unknown): EmulatorConfig {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new ApiError(400, 'Config must be a JSON object');
  const next: EmulatorConfig = { ...config };
  const defaults = defaultConfig();
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in defaults)) throw new ApiError(400, `Unknown config key "${key}"`);
    const k = key as keyof EmulatorConfig;
    if (k === 'generation') {
      if (value !== 'old' && value !== 'new' && value !== 'both') throw new ApiError(400, 'generation must be "old", "new" or "both"');
      next.generation = value;
    } else if (k === 'latencyMs') {
      if (typeof value !== 'number' || !(value >= 0)) throw new ApiError(400, 'latencyMs must be a number >= 0');
      next.latencyMs = value;
    } else if (k === 'creationResultKeys') {
      if (value !== 'reference' && value !== 'variant') throw new ApiError(400, 'creationResultKeys must be "reference" or "variant"');
      next.creationResultKeys = value;
    } else if (k === 'errorShape') {
      if (value !== 'apiError' && value !== 'error' && value !== 'text') throw new ApiError(400, 'errorShape must be "apiError", "error" or "text"');
      next.errorShape = value;
    } else {
      if (typeof value !== 'boolean') throw new ApiError(400, `${key} must be true or false`);
      next[k] = value;
    }
  }
  return next;
}

export interface Fault {
  /** How many more matching requests this fault applies to. */
  count: number;
  /** Substring of `METHOD + ' ' + path` (path as sent, with the query string). */
  match?: string;
  status?: number;
  html?: boolean;
  retryAfter?: number;
  apiError?: string;
  /** This text as the body (text/plain) with `status` (default 200): an error a proxy or server words itself. */
  text?: string;
  /** With `text`: its content type instead of text/plain (a hostile answer in the route's own format). */
  contentType?: string;
  dropAfterBytes?: number;
  /** Headers and this many body bytes, then nothing more: the connection is held open, never ended. */
  stallAfterBytes?: number;
  resetBeforeResponse?: boolean;
  delayMs?: number;
}

const FAULT_KEYS: Record<string, 'number' | 'string' | 'boolean'> = {
  count: 'number',
  match: 'string',
  status: 'number',
  html: 'boolean',
  retryAfter: 'number',
  apiError: 'string',
  text: 'string',
  contentType: 'string',
  dropAfterBytes: 'number',
  stallAfterBytes: 'number',
  resetBeforeResponse: 'boolean',
  delayMs: 'number',
};

export function parseFault(value: unknown): Fault {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError(400, 'A fault must be a JSON object');
  for (const [key, v] of Object.entries(value)) {
    const type = FAULT_KEYS[key];
    if (!type) throw new ApiError(400, `Unknown fault key "${key}"`);
    if (typeof v !== type) throw new ApiError(400, `Fault key "${key}" must be a ${type}`);
  }
  const fault = { count: 1, ...(value as Partial<Fault>) };
  if (!Number.isInteger(fault.count) || fault.count < 1) throw new ApiError(400, 'count must be an integer >= 1');
  if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599)) {
    throw new ApiError(400, 'status must be an HTTP status code');
  }
  for (const key of ['dropAfterBytes', 'stallAfterBytes'] as const) {
    const v = fault[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw new ApiError(400, `${key} must be an integer >= 0`);
  }
  if (fault.dropAfterBytes !== undefined && fault.stallAfterBytes !== undefined) {
    throw new ApiError(400, 'A fault either drops (dropAfterBytes) or stalls (stallAfterBytes), not both');
  }
  return fault;
}

/** Takes one use of the first queued fault that matches this request, if any. */
export function takeFault(queue: Fault[], method: string, url: string): Fault | undefined {
  const key = `${method} ${url}`;
  let decoded = key;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    // keep the raw form
  }
  const index = queue.findIndex((f) => f.match === undefined || key.includes(f.match) || decoded.includes(f.match));
  if (index < 0) return undefined;
  const fault = queue[index];
  fault.count--;
  if (fault.count <= 0) queue.splice(index, 1);
  return { ...fault };
}
