// The Datagrok REST client: one method per operation of the reference, over one Transport.
import { getFunction, listConnections, listFunctions, listProjects, listTables } from './catalog';
import { createDashboard, shareDashboard } from './dashboards';
import { EntityRoutes } from './entities';
import type { DatagrokApi } from './datagrokApi';
import { deleteFile, downloadFile, listFiles, readFile, uploadFile } from './files';
import { listPackages, packageTimestamps, publishPackage } from './packages';
import { syncFolder } from './folderSync';
import { callFunction } from './functions';
import { type AnswerFiles, type CallToFile, callFunctionToFile } from './callToFile';
import { createGroup, currentUserGroup, getGroup, getMembers, getMemberships, listGroups, listRequests, lookupGroups, requestMembership, resolveRequest } from './groups';
import type { PackageInfo } from './catalogTypes';
import { Transport } from './http';
import { RouteChoice } from './routes';
import { deleteScript, getScript, listDataConnections, listScripts, type ScriptEntity, type ScriptKind, saveScript } from './scripts';
import { sessionToken } from './sessions';
import { downloadTable, uploadTable } from './tables';
import type {
  CallOptions,
  ClientOptions,
  ConnectionInfo,
  CreationResult,
  DownloadTarget,
  FileEntry,
  FuncInfo,
  Group,
  MembershipRequest,
  Paging,
  ProjectInfo,
  Route,
  ShareAccess,
  SyncPart,
  TableInfo,
  TransferOptions,
  TransferResult,
  UploadSource,
} from './types';

/** Which route generation the server was found to have, per operation with two generations. */
export interface ServerRoutes {
  functionCall?: 'reference' | 'current';
  currentUserGroup?: 'reference' | 'current';
  shareDashboard?: 'reference' | 'current';
}

export class DatagrokClient implements DatagrokApi {
  private readonly http: Transport;
  private readonly functionRoute = new RouteChoice();
  private readonly userGroupRoute = new RouteChoice();
  private readonly shareRoute = new RouteChoice();

  /** Throws a DatagrokError of kind 'badInput' when the base URL is not an http(s) URL. */
  /** The internal entity routes (per type list / get / save / delete, lookups): bundles use them. */
  readonly entities: EntityRoutes;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
    this.entities = new EntityRoutes(this.http);
  }

  /** The base URL without a trailing '/'. */
  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** Direct or through which proxy this client's requests go (see network.ts). */
  get route(): Route {
    return this.http.route;
  }

  /** What has been learnt about the server's route generations (for diagnostics). */
  get routes(): ServerRoutes {
    return {
      functionCall: this.functionRoute.known,
      currentUserGroup: this.userGroupRoute.known,
      shareDashboard: this.shareRoute.known,
    };
  }

  listFunctions(text?: string, options?: CallOptions): Promise<FuncInfo[]> {
    return guard(() => listFunctions(this.http, text, options));
  }

  getFunction(idOrName: string, options?: CallOptions): Promise<FuncInfo> {
    return guard(() => getFunction(this.http, idOrName, options));
  }

  listConnections(text?: string, options?: CallOptions): Promise<ConnectionInfo[]> {
    return guard(() => listConnections(this.http, text, options));
  }

  listTables(paging?: Paging, options?: CallOptions): Promise<TableInfo[]> {
    return guard(() => listTables(this.http, paging, options));
  }

  listProjects(paging?: Paging, options?: CallOptions): Promise<ProjectInfo[]> {
    return guard(() => listProjects(this.http, paging, options));
  }

  downloadFile(connector: string, path: string, target: DownloadTarget, options?: TransferOptions): Promise<TransferResult> {
    return guard(() => downloadFile(this.http, connector, path, target, options));
  }

  readFile(connector: string, path: string, options?: TransferOptions & { maxBytes?: number }): Promise<Uint8Array> {
    return guard(() => readFile(this.http, connector, path, options));
  }

  uploadFile(connector: string, path: string, source: UploadSource, options?: TransferOptions): Promise<void> {
    return guard(() => uploadFile(this.http, connector, path, source, options));
  }

  deleteFile(connector: string, path: string, options?: CallOptions): Promise<void> {
    return guard(() => deleteFile(this.http, connector, path, options));
  }

  listFiles(connector: string, dir: string, options?: CallOptions): Promise<FileEntry[]> {
    return guard(() => listFiles(this.http, connector, dir, options));
  }

  syncFolder(
    connector: string,
    dir: string,
    known: Readonly<Record<string, string>>,
    onPart: (part: SyncPart) => void | Promise<void>,
    options?: CallOptions & { recursive?: boolean; contentDir?: string },
  ): Promise<number> {
    return guard(() => syncFolder(this.http, connector, dir, known, onPart, options));
  }

  downloadTable(name: string, target: DownloadTarget, options?: TransferOptions): Promise<TransferResult> {
    return guard(() => downloadTable(this.http, name, target, options));
  }

  uploadTable(name: string, source: UploadSource, options?: TransferOptions): Promise<CreationResult> {
    return guard(() => uploadTable(this.http, name, source, options));
  }

  createDashboard(name: string, tableIds: string[], layout?: object, options?: CallOptions): Promise<CreationResult> {
    return guard(() => createDashboard(this.http, name, tableIds, layout, options));
  }

  shareDashboard(id: string, groups: string[], access?: ShareAccess, options?: CallOptions): Promise<void> {
    return guard(() => shareDashboard(this.http, this.shareRoute, id, groups, access, options));
  }

  callFunction(name: string, params: Record<string, unknown>, options?: CallOptions): Promise<unknown> {
    return guard(() => callFunction(this.http, this.functionRoute, name, params, options));
  }

  callFunctionToFile(name: string, params: Record<string, unknown>, files: AnswerFiles, options?: CallOptions): Promise<CallToFile> {
    return guard(() => callFunctionToFile(this.http, this.functionRoute, name, params, files, options));
  }

  listGroups(query?: { include?: string; text?: string }, options?: CallOptions): Promise<Group[]> {
    return guard(() => listGroups(this.http, query, options));
  }

  createGroup(group: Partial<Group> & { name: string }, saveRelations?: boolean, options?: CallOptions): Promise<Group> {
    return guard(() => createGroup(this.http, group, saveRelations, options));
  }

  lookupGroups(query?: string, options?: CallOptions): Promise<Group[]> {
    return guard(() => lookupGroups(this.http, query, options));
  }

  getGroup(id: string, options?: CallOptions): Promise<Group> {
    return guard(() => getGroup(this.http, id, options));
  }

  getMembers(id: string, admin?: boolean, options?: CallOptions): Promise<Group[]> {
    return guard(() => getMembers(this.http, id, admin, options));
  }

  getMemberships(id: string, admin?: boolean, options?: CallOptions): Promise<Group[]> {
    return guard(() => getMemberships(this.http, id, admin, options));
  }

  requestMembership(groupId: string, options?: CallOptions): Promise<MembershipRequest> {
    return guard(() => requestMembership(this.http, groupId, options));
  }

  listRequests(groupId: string, options?: CallOptions): Promise<MembershipRequest[]> {
    return guard(() => listRequests(this.http, groupId, options));
  }

  approveRequest(requestId: string, options?: CallOptions): Promise<void> {
    return guard(() => resolveRequest(this.http, requestId, 'approve', options));
  }

  denyRequest(requestId: string, options?: CallOptions): Promise<void> {
    return guard(() => resolveRequest(this.http, requestId, 'deny', options));
  }

  currentUserGroup(options?: CallOptions): Promise<Group> {
    return guard(() => currentUserGroup(this.http, this.userGroupRoute, options));
  }

  sessionToken(options?: CallOptions): Promise<string> {
    return guard(() => sessionToken(this.http, options));
  }

  close(): Promise<void> {
    return this.http.close();
  }

  listScripts(kind: ScriptKind, text?: string, options?: CallOptions): Promise<ScriptEntity[]> {
    return guard(() => listScripts(this.http, kind, text, options));
  }

  getScript(kind: ScriptKind, id: string, options?: CallOptions): Promise<ScriptEntity> {
    return guard(() => getScript(this.http, kind, id, options));
  }

  saveScript(kind: ScriptKind, entity: Partial<ScriptEntity> & { name: string }, options?: CallOptions): Promise<ScriptEntity> {
    return guard(() => saveScript(this.http, kind, entity, options));
  }

  deleteScript(kind: ScriptKind, id: string, options?: CallOptions): Promise<void> {
    return guard(() => deleteScript(this.http, kind, id, options));
  }

  listDataConnections(text?: string, options?: CallOptions): Promise<{ id: string; name: string; nqName: string; dataSource?: string }[]> {
    return guard(() => listDataConnections(this.http, text, options));
  }

  listPackages(text?: string, options?: CallOptions): Promise<PackageInfo[]> {
    return guard(() => listPackages(this.http, text, options));
  }

  packageTimestamps(npmName: string, options?: CallOptions): Promise<Record<string, string>> {
    return guard(() => packageTimestamps(this.http, npmName, options));
  }

  publishPackage(npmName: string, archive: UploadSource, debug: boolean, options?: TransferOptions): Promise<void> {
    return guard(() => publishPackage(this.http, npmName, archive, debug, options));
  }
}

/** Input checks throw synchronously; every method reports failures only through its promise. */
function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return call();
  } catch (err) {
    return Promise.reject(err);
  }
}

/** A client for one server and key. Throws a 'badInput' DatagrokError when the base URL is not http(s). */
export function createClient(options: ClientOptions): DatagrokClient {
  return new DatagrokClient(options);
}
