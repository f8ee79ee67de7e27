// The Datagrok public REST API's data as the rest of the extension sees it (the operations are in datagrokApi.ts).
// Pure TypeScript: nothing here (or anywhere under src/api) may import `vscode`.
import type { Readable, Writable } from 'node:stream';
import type { NetworkOptions } from './network';

export type { NetworkOptions, Route } from './network';

/** A group (a user's personal group is a group too). Fields per the API reference. */
export interface Group {
  id: string;
  name: string;
  friendlyName?: string;
  description?: string;
  createdOn?: string;
  updatedOn?: string;
  personal?: boolean;
  hidden?: boolean;
  parents?: GroupRelation[];
  children?: GroupRelation[];
}

export interface GroupRelation {
  id: string;
  isAdmin: boolean;
  parent?: Group;
  child?: Group;
}

export interface MembershipRequest {
  id: string;
  description?: string;
  /** Set when the request was approved or denied; absent/null while pending. */
  resolutionDate?: string | null;
  /** true approved, false denied, absent/null pending. */
  approved?: boolean | null;
  /** When it was made (ISO), as servers send it. */
  createdOn?: string;
  from?: Group;
  to?: Group;
}

/** The result of a table upload or a dashboard creation, keys normalised from the server's spelling. */
export interface CreationResult {
  ID: string;
  name: string;
  Markup: string;
  URL: string;
}

export type ShareAccess = 'View' | 'Edit';

/** One entry of a connector folder listing (internal route, not in the reference). */
export interface FileEntry {
  /** Path within the connector, without a leading slash. Folders end without '/'. */
  path: string;
  name: string;
  isFile: boolean;
  size?: number;
  /** ISO date-time. */
  updatedOn?: string;
}

export interface TransferProgress {
  /** Bytes sent or received so far. */
  bytes: number;
  /** Total bytes when known (Content-Length or file size). */
  total?: number;
}

export interface CallOptions {
  /** Cancels the request; the promise rejects with a DatagrokError of kind 'cancelled'. */
  signal?: AbortSignal;
  /**
   * Called with the server's clock (its Date header, ms) when it answers with success: what was read or
   * written can then be told apart from a later change that a listing's `updatedOn` shows.
   */
  onServerTime?: (ms: number) => void;
}

export interface TransferOptions extends CallOptions {
  onProgress?: (progress: TransferProgress) => void;
}

/** What to upload: a file on disk (streamed), any readable stream, or bytes/text already in memory (long text is encoded a slice at a time). */
export type UploadSource =
  | { file: string }
  | { stream: Readable | AsyncIterable<Uint8Array>; size?: number }
  /** `byteLength`: the text's UTF-8 size when the caller already counted it (saves a pass over long text). */
  | { data: string | Uint8Array; byteLength?: number };

/**
 * Where to download to. `file`: written to a temporary sibling and renamed into place only when the
 * download completed, so a failed or cancelled download never leaves a partial file under that name;
 * with `growing`, written into `file` itself as the data arrives, for a reader that follows it (the data
 * view), and removed when the download fails or is cancelled.
 */
export type DownloadTarget = { file: string; growing?: boolean } | { stream: Writable };

export interface TransferResult {
  bytes: number;
}

export interface RequestLogEntry {
  method: string;
  /** Path relative to the base URL, e.g. /public/v1/groups. Never contains the key. */
  path: string;
  status?: number;
  durationMs: number;
  attempt: number;
  /** Set when the request failed: the error kind. */
  error?: ErrorKind;
}

export interface ClientOptions {
  /** Base URL ending in /api, e.g. https://public.datagrok.ai/api */
  baseUrl: string;
  /** The API key, with or without a leading "Bearer ". */
  apiKey: string;
  timeouts?: {
    /** TCP/TLS connect timeout, default 30 s. */
    connectMs?: number;
    /** Headers and body timeout of JSON calls, default 60 s. */
    requestMs?: number;
    /** Headers and idle-body timeout of file/table transfers, default 600 s. */
    transferMs?: number;
  };
  /** How many times an idempotent GET is retried (429/502/503/504, dropped connection). Default 3. */
  retries?: number;
  /** Base backoff delay in ms (doubles each retry; Retry-After wins when present). Default 500. */
  retryBaseDelayMs?: number;
  /** The largest JSON answer held in memory, default 64 MiB; a larger one fails with kind 'tooLarge'. */
  maxAnswerBytes?: number;
  /** Called once per HTTP attempt, for logging. */
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Proxy and certificate settings, as plain data (see network.ts). Absent: direct, Node's default
   * authorities (with NODE_EXTRA_CA_CERTS). The client builds its own dispatcher from them.
   */
  network?: NetworkOptions;
}

export type ErrorKind =
  | 'unauthorized' // 401: wrong or missing key
  | 'forbidden' // 403: no permission
  | 'notFound' // 404 or an ApiError about a missing entity
  | 'server' // the server reported an error (5xx with a message, ApiError on 200, 4xx other)
  | 'unavailable' // 502/503/504 or an HTML error page: server or proxy down
  | 'network' // connection refused/reset, DNS failure, an untrusted certificate, a proxy refusing
  | 'timeout'
  | 'cancelled'
  | 'badInput' // rejected before any request: bad name, path, URL or parameters
  | 'tooLarge' // a bounded read stopped: the content or answer is larger than the limit
  | 'unexpectedAnswer' // a 2xx that is not the route's answer: a gateway's web page, error text, an unasked-for encoding
  | 'unsupported'; // the server lacks an optional route (file listing, file delete)

export type { ConnectionInfo, FuncInfo, FuncParam, FunctionKind, PackageInfo, PackageVersionInfo, Paging, ProjectInfo, TableInfo } from './catalogTypes';

/** One file of a folder sync answer; `path` is relative to the folder, with '/', as the server named it (it may hold '..' or be no usable file name here: check it before writing it). */
export type SyncPart =
  | { path: string; status: 'deleted' }
  | { path: string; status: 'notModified'; eTag?: string }
  /**
   * New or changed: the server's ETag for it, the content's size and sha256, and the file the content was written
   * to (with the `contentDir` option; without it the content was dropped).
   */
  | { path: string; status: 'content'; eTag: string; size: number; sha256: string; file?: string };

export type ScriptKind = 'script' | 'query';

/** A saved script or query, as the routes answer it (other fields kept as they came). */
export interface ScriptEntity {
  id: string;
  name: string;
  /** `Namespace:Name` when the server says; calls use it. */
  nqName?: string;
  namespace?: string;
  language?: string;
  /** The code (scripts). */
  script?: string;
  /** The SQL (queries). */
  query?: string;
  connection?: { id?: string; name?: string; nqName?: string } | null;
  updatedOn?: string;
  [key: string]: unknown;
}
