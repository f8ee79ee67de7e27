// What the server's catalog routes describe: functions with their signatures, connections, tables and
// projects (dashboards are projects with isDashboard). Read defensively: every field but the id and the
// name may be missing on a given server.

export type FunctionKind = 'function' | 'script' | 'query';

export interface FuncParam {
  name: string;
  /** int, double, string, bool, dataframe, column, datetime, list, dynamic, … */
  propertyType: string;
  isInput: boolean;
  description?: string;
  defaultValue?: unknown;
  nullable?: boolean;
  choices?: string[];
}

export interface FuncInfo {
  id: string;
  name: string;
  /** `Package:Name`, what calls and parameter files use. */
  nqName: string;
  package: string;
  kind: FunctionKind;
  description?: string;
  tags: string[];
  /** Inputs then outputs, as the server lists them; present on a function read by name, often not in lists. */
  params?: FuncParam[];
  /** Script language (python, r, javascript…) when the function is a script. */
  language?: string;
}

export interface ConnectionInfo {
  id: string;
  name: string;
  /** `Namespace:Name`, e.g. `System:DemoFiles`: the connector of file paths. */
  nqName: string;
  /** `Files` for a file share. */
  dataSource?: string;
  description?: string;
}

export interface TableInfo {
  id: string;
  name: string;
  /** `Project:table` when known. */
  nqName?: string;
  projectName?: string;
  bytes?: number;
  updatedOn?: string;
}

export interface ProjectInfo {
  id: string;
  name: string;
  isDashboard: boolean;
  description?: string;
  updatedOn?: string;
  tables: { id: string; name: string }[];
}

/** One page of a server list (`page` counts from 1). */
export interface Paging {
  text?: string;
  limit?: number;
  page?: number;
}

/** One published version of a package: a release named by its version, or a user's debug version named by the login. */
export interface PackageVersionInfo {
  version: string;
  debug: boolean;
  isCurrent: boolean;
  isLatest: boolean;
  buildNumber?: number;
  updatedOn?: string;
}

/** A package on the server (`GET /packages`), under its server name (`@acme/hello-world` → `HelloWorld`). */
export interface PackageInfo {
  id: string;
  name: string;
  friendlyName?: string;
  /** The version of the package the caller loads (their debug version's, else the current release's). */
  version?: string;
  updatedOn?: string;
  publishedVersions: PackageVersionInfo[];
}
