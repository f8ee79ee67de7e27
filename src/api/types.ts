// The Datagrok public REST API as the rest of the extension sees it.
// Pure TypeScript: nothing here (or anywhere under src/api) may import `vscode`.
import type { EntityRoutes } from './entities';
import type { ConnectionInfo, FuncInfo, Paging, ProjectInfo, TableInfo } from './catalogTypes';
import type { ScriptEntity, ScriptKind } from './scripts';
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

export interface DatagrokApi {
  readonly baseUrl: string;
  /** The internal entity routes (base /api) the web client and `grok s pull | diff | push` use. */
  readonly entities: EntityRoutes;

  // Catalogs (not in the reference; real servers have them). A server without the route: kind 'unsupported'.
  /** Functions matching a smart-search text (`package = "Chem"`, `name contains "x"`, words); all without text. */
  listFunctions(text?: string, options?: CallOptions): Promise<FuncInfo[]>;
  /** One function by ID or `Package:Name`, with its signature. */
  getFunction(idOrName: string, options?: CallOptions): Promise<FuncInfo>;
  listConnections(text?: string, options?: CallOptions): Promise<ConnectionInfo[]>;
  listTables(paging?: Paging, options?: CallOptions): Promise<TableInfo[]>;
  /** Projects; dashboards are the ones with `isDashboard`. */
  listProjects(paging?: Paging, options?: CallOptions): Promise<ProjectInfo[]>;

  // Files under connectors. `connector` in platform (`System:DemoFiles`) or REST (`System.DemoFiles`) form;
  // `path` is a '/'-separated path within the connector.
  downloadFile(connector: string, path: string, target: DownloadTarget, options?: TransferOptions): Promise<TransferResult>;
  /** Reads a whole file into memory; rejects with kind 'tooLarge' without reading further when larger than maxBytes. */
  readFile(connector: string, path: string, options?: TransferOptions & { maxBytes?: number }): Promise<Uint8Array>;
  uploadFile(connector: string, path: string, source: UploadSource, options?: TransferOptions): Promise<void>;
  /** DELETE of a file; rejects with kind 'unsupported' when the server has no such route. */
  deleteFile(connector: string, path: string, options?: CallOptions): Promise<void>;
  /** Lists a folder ('' for the root); rejects with kind 'unsupported' when the server cannot list. */
  listFiles(connector: string, dir: string, options?: CallOptions): Promise<FileEntry[]>;
  /**
   * The folder sync route (as the Python client's `sync_dir`): sends `known` ({relative path: eTag}) and hands
   * each part to `onPart` as it arrives; resolves with the number of parts (0 when the folder is empty).
   */
  syncFolder(
    connector: string,
    dir: string,
    known: Readonly<Record<string, string>>,
    onPart: (part: SyncPart) => void | Promise<void>,
    options?: CallOptions & { recursive?: boolean; contentDir?: string },
  ): Promise<number>;

  // Tables: `name` is a UUID or a name such as `<project>.<table>` or `Project:Table`.
  downloadTable(name: string, target: DownloadTarget, options?: TransferOptions): Promise<TransferResult>;
  uploadTable(name: string, source: UploadSource, options?: TransferOptions): Promise<CreationResult>;

  // Dashboards
  createDashboard(name: string, tableIds: string[], layout?: object, options?: CallOptions): Promise<CreationResult>;
  shareDashboard(id: string, groups: string[], access?: ShareAccess, options?: CallOptions): Promise<void>;

  // Functions: `name` like `Package:Name`. One output → that value; several → an array.
  callFunction(name: string, params: Record<string, unknown>, options?: CallOptions): Promise<unknown>;

  // Groups
  listGroups(query?: { include?: string; text?: string }, options?: CallOptions): Promise<Group[]>;
  createGroup(group: Partial<Group> & { name: string }, saveRelations?: boolean, options?: CallOptions): Promise<Group>;
  lookupGroups(query?: string, options?: CallOptions): Promise<Group[]>;
  getGroup(id: string, options?: CallOptions): Promise<Group>;
  getMembers(id: string, admin?: boolean, options?: CallOptions): Promise<Group[]>;
  getMemberships(id: string, admin?: boolean, options?: CallOptions): Promise<Group[]>;
  requestMembership(groupId: string, options?: CallOptions): Promise<MembershipRequest>;
  listRequests(groupId: string, options?: CallOptions): Promise<MembershipRequest[]>;
  approveRequest(requestId: string, options?: CallOptions): Promise<void>;
  denyRequest(requestId: string, options?: CallOptions): Promise<void>;
  currentUserGroup(options?: CallOptions): Promise<Group>;

  /** Closes the client's own connection pool. */
  close(): Promise<void>;

  // Scripts and queries (the internal entity routes the grok CLI uses; a server without them: 'unsupported')
  listScripts(kind: ScriptKind, text?: string, options?: CallOptions): Promise<ScriptEntity[]>;
  getScript(kind: ScriptKind, id: string, options?: CallOptions): Promise<ScriptEntity>;
  /** Creates (no `id`) or replaces (with the `id` of the saved one) a script or query. */
  saveScript(kind: ScriptKind, entity: Partial<ScriptEntity> & { name: string }, options?: CallOptions): Promise<ScriptEntity>;
  deleteScript(kind: ScriptKind, id: string, options?: CallOptions): Promise<void>;
  /** Every data connection (databases and file shares): what a query's `connection` names. */
  listDataConnections(text?: string, options?: CallOptions): Promise<{ id: string; name: string; nqName: string; dataSource?: string }[]>;
}

export type { ScriptEntity, ScriptKind } from './scripts';

export type { ConnectionInfo, FuncInfo, FuncParam, FunctionKind, Paging, ProjectInfo, TableInfo } from './catalogTypes';

/** One file of a folder sync answer; `path` is relative to the folder, with '/', as the server named it (it may hold '..' or be no usable file name here: check it before writing it). */
export type SyncPart =
  | { path: string; status: 'deleted' }
  | { path: string; status: 'notModified'; eTag?: string }
  /**
   * New or changed: the server's ETag for it, the content's size and sha256, and the file the content was written
   * to (with the `contentDir` option; without it the content was dropped).
   */
  | { path: string; status: 'content'; eTag: string; size: number; sha256: string; file?: string };
