// The JSON of the entities real clients list and read beyond the reference: connections, tables
// (TableInfo), projects and dashboards (a dashboard is a project with `isDashboard: true`), users.
import type { Connector } from './files';
import type { GroupStore } from './groups';
import { ApiError, isUuid, platformName } from './http';
import { type DashboardRecord, fullNameOf, type ProjectRecord, type TableRecord, type TableStore } from './tables';

const SEEDED = '2024-01-15T09:00:00.000Z';

/**
 * A file-share connection. `namespace` carries its trailing colon (`System:`): the new Python client builds
 * the grok name as `namespace + name`.
 */
export function connectionJson(c: Connector): Record<string, unknown> {
  const colon = c.name.indexOf(':');
  const namespace = c.name.slice(0, colon + 1);
  const short = c.name.slice(colon + 1);
  return {
    id: c.id,
    name: short,
    friendlyName: short,
    nqName: c.name,
    namespace,
    dataSource: 'Files',
    description: c.description ?? '',
    tags: c.tags ?? [],
    createdOn: SEEDED,
    updatedOn: SEEDED,
    parameters: { dir: `/${c.name.replace(':', '/')}` },
  };
}

export function tableInfoJson(t: TableRecord, projects: TableStore['projects']): Record<string, unknown> {
  const project = [...projects.values()].find((p) => p.tableIds.includes(t.id));
  return {
    id: t.id,
    name: t.name,
    friendlyName: t.name,
    // As real servers: `namespace + name` is the full name, `<owner>:<project>:<table>`.
    nqName: fullNameOf(t),
    namespace: `${t.owner ? `${t.owner}:` : ''}${t.project}:`,
    projectId: project?.id ?? null,
    projectName: t.project,
    bytes: t.bytes,
    createdOn: t.createdOn,
    updatedOn: t.updatedOn,
  };
}

/** `GET /api/tables/{id}`: by id, or by name as the public routes take it. */
export function findTable(tables: TableStore, idOrName: string): TableRecord {
  const t = tables.find(idOrName);
  if (!t) throw new ApiError(404, `Table ${isUuid(idOrName) ? idOrName : platformName(idOrName)} not found`);
  return t;
}

type ProjectLike = (ProjectRecord & { isDashboard: false }) | (DashboardRecord & { isDashboard: true });

/** Projects and dashboards together, the way `/api/projects` lists them. */
export function projectsOf(tables: TableStore): ProjectLike[] {
  return [
    ...[...tables.projects.values()].map((p) => ({ ...p, isDashboard: false as const })),
    ...[...tables.dashboards.values()].map((d) => ({ ...d, isDashboard: true as const })),
  ];
}

export function projectJson(p: ProjectLike, tables: TableStore): Record<string, unknown> & { name: string } {
  return {
    id: p.id,
    name: p.name,
    friendlyName: p.name,
    isDashboard: p.isDashboard,
    description: p.isDashboard ? `Dashboard of ${p.tableIds.length} table(s)` : '',
    createdOn: p.createdOn,
    updatedOn: p.createdOn,
    tables: p.tableIds.flatMap((id) => {
      const t = tables.tables.get(id);
      return t ? [{ id: t.id, name: t.name, nqName: fullNameOf(t) }] : [];
    }),
  };
}

export function findProject(tables: TableStore, idOrName: string): ProjectLike {
  const all = projectsOf(tables);
  const lower = platformName(idOrName).toLowerCase();
  const p = all.find((x) => x.id === idOrName.toLowerCase()) ?? all.find((x) => x.name.toLowerCase() === lower);
  if (!p) throw new ApiError(404, `Project ${idOrName} not found`);
  return p;
}

export interface UserRecord {
  id: string;
  login: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The user's personal group. */
  groupId: string;
  status: 'active' | 'new' | 'blocked' | 'guest';
}

/** A user: `status` is one of new / active / blocked / guest (the Python client requires it); `group` the personal group. */
export function userJson(u: UserRecord, groups: GroupStore): Record<string, unknown> & { name: string; friendlyName: string } {
  const group = groups.plain(groups.get(u.groupId));
  return {
    id: u.id,
    login: u.login,
    name: u.login,
    friendlyName: `${u.firstName} ${u.lastName}`.trim(),
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    status: u.status,
    group,
    createdOn: group.createdOn,
    updatedOn: group.updatedOn,
  };
}

/** A user by id, login, or personal-group id (case-insensitive). */
export function findUser(users: UserRecord[], idOrLogin: string): UserRecord {
  const lower = idOrLogin.toLowerCase();
  const u = users.find((x) => x.id === lower || x.login.toLowerCase() === lower || x.groupId === lower);
  if (!u) throw new ApiError(404, `User ${idOrLogin} not found`);
  return u;
}
