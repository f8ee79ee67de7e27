// What the REST client offers, as one interface: every operation of the public API and the routes Datagrok's
// own clients use beside them. The top of src/api: it names the endpoints' types (types.ts, catalogTypes.ts)
// and the entity routes; nothing under src/api imports it but the client that implements it.
import type { AnswerFiles, CallToFile } from './callToFile';
import type { PackageInfo } from './catalogTypes';
import type { EntityRoutes } from './entities';
import type {
  CallOptions,
  ConnectionInfo,
  CreationResult,
  DownloadTarget,
  FileEntry,
  FuncInfo,
  Group,
  MembershipRequest,
  Paging,
  ProjectInfo,
  ScriptEntity,
  ScriptKind,
  ShareAccess,
  SyncPart,
  TableInfo,
  TransferOptions,
  TransferResult,
  UploadSource,
} from './types';

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
  /**
   * Calls a function; an answer that is one string (a dataframe's CSV) or CSV text is written to a file as it
   * arrives, never held in memory: to `files`, or to the file `files()` names. With `files()`, the answer of
   * several outputs (an array) is read element by element, each string to a new file of `files()`'s. Any other
   * answer comes back as its value, as callFunction's would.
   */
  callFunctionToFile(name: string, params: Record<string, unknown>, files: AnswerFiles, options?: CallOptions): Promise<CallToFile>;

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
  /** A session token for a browser (the grok CLI's dev-key login), as `grok test` signs a browser in; a credential. */
  sessionToken(options?: CallOptions): Promise<string>;

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

  // Packages (grok publish's routes, the key sent as `Dev <key>`; packages.ts)
  /** The packages matching a search text, with the versions the caller sees. */
  listPackages(text?: string, options?: CallOptions): Promise<PackageInfo[]>;
  /** The files of the caller's last debug upload of a package, with their modification times. */
  packageTimestamps(npmName: string, options?: CallOptions): Promise<Record<string, string>>;
  /** Uploads a package's archive as a debug version (only the caller sees it) or a release. */
  publishPackage(npmName: string, archive: UploadSource, debug: boolean, options?: TransferOptions): Promise<void>;
}
