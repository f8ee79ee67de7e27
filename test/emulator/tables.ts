// Tables (CSV on disk under <dataDir>/tables/<id>.csv), the projects they belong to, dashboards and shares.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';
import Papa from 'papaparse';
import type { CreationResult } from '../../src/api/types';
import type { GroupStore } from './groups';
import { uuidFrom } from './entity-json';
import { ApiError, isUuid, platformName } from './http';
import { receiveToFile, sendFile, type Stored } from './streams';

export type Access = 'View' | 'Edit';

export interface Share {
  /** Group id. */
  group: string;
  groupName: string;
  access: Access;
}

export interface TableRecord extends Stored {
  id: string;
  name: string;
  project: string;
  /** The uploader's login, the first part of the full name (`<owner>:<project>:<table>`); '' for the seeded tables. */
  owner: string;
  createdOn: string;
  updatedOn: string;
  shares: Share[];
}

export interface ProjectRecord {
  id: string;
  name: string;
  /** Whose namespace the project is in ('' for the seeded projects). */
  owner: string;
  tableIds: string[];
  createdOn: string;
}

export interface DashboardRecord {
  id: string;
  name: string;
  tableIds: string[];
  layout: unknown;
  shares: Share[];
  createdOn: string;
}

/** `<owner>:<project>:<table>` as real servers name tables; a seeded table (no owner) is `<project>:<table>`. */
export function fullNameOf(t: Pick<TableRecord, 'owner' | 'project' | 'name'>): string {
  return [t.owner, t.project, t.name].filter((part) => part !== '').join(':');
}

/** The table's page, shaped as real links are (`/p/{namespace}.{project}/{table}`). */
export function tablePath(t: Pick<TableRecord, 'owner' | 'project' | 'name'>): string {
  return `/p/${encodeURIComponent(t.owner ? `${t.owner}.${t.project}` : t.project)}/${encodeURIComponent(t.name)}`;
}

export interface ShareOutcome {
  shared: string[];
  alreadyShared: string[];
  failed: string[];
}

export class TableStore {
  readonly tables = new Map<string, TableRecord>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly dashboards = new Map<string, DashboardRecord>();

  constructor(
    readonly dataDir: string,
    readonly tmpDir: string,
    /** The signed-in user's login: the owner of what they upload. */
    readonly login: () => string = () => '',
  ) {}

  get dir(): string {
    return path.join(this.dataDir, 'tables');
  }

  async wipe(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true });
    this.tables.clear();
    this.projects.clear();
    this.dashboards.clear();
  }

  fileOf(id: string): string {
    return path.join(this.dir, `${id}.csv`);
  }

  /** `<project>.<table>`, `Project:table`, `owner:Project:table` or a bare `table` (its own project); `owner` only when given. */
  parseName(raw: string): { owner?: string; project: string; table: string } {
    const parts = platformName(raw).split(':');
    if (parts.some((p) => p.trim() === '') || parts.length > 3) throw new ApiError(400, `Invalid table name "${raw}"`);
    if (parts.length === 1) return { project: parts[0], table: parts[0] };
    if (parts.length === 2) return { project: parts[0], table: parts[1] };
    return { owner: parts[0], project: parts[1], table: parts[2] };
  }

  /**
   * Of the tables `wanted` accepts, the signed-in user's first, then a seeded one (no owner), then anyone's:
   * a name without the owner means the caller's own table where there is one.
   */
  private pick(wanted: (t: TableRecord) => boolean): TableRecord | undefined {
    const login = this.login().toLowerCase();
    let best: TableRecord | undefined;
    let bestRank = 3;
    for (const t of this.tables.values()) {
      if (!wanted(t)) continue;
      const rank = t.owner.toLowerCase() === login ? 0 : t.owner === '' ? 1 : 2;
      if (rank < bestRank) [best, bestRank] = [t, rank];
    }
    return best;
  }

  /**
   * By ID, or by name: `owner:project:table` exactly; `project:table` (and a bare `t`, read as `t:t`) the
   * caller's own first. A bare name (reading, not `exact`) also finds a table of that name in any project.
   */
  find(raw: string, exact = false): TableRecord | undefined {
    if (isUuid(raw)) return this.tables.get(raw.toLowerCase());
    const { owner, project, table } = this.parseName(raw);
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const named = (t: TableRecord) => same(t.project, project) && same(t.name, table) && (owner === undefined || same(t.owner, owner));
    const found = this.pick(named);
    if (found || exact || platformName(raw).includes(':')) return found;
    return this.pick((t) => same(t.name, table));
  }

  /** The table an upload of `raw` replaces: the caller's own of that name, else a seeded one (no owner) of that project and name. */
  private uploadTarget(raw: string): TableRecord | undefined {
    const found = this.find(raw, true);
    return found && (found.owner === '' || found.owner.toLowerCase() === this.login().toLowerCase()) ? found : undefined;
  }

  get(raw: string): TableRecord {
    const t = this.find(raw);
    if (!t) throw new ApiError(404, `Table ${isUuid(raw) ? raw : platformName(raw)} not found`);
    return t;
  }

  async download(res: ServerResponse, raw: string, chunked = false): Promise<void> {
    await sendFile(res, this.fileOf(this.get(raw).id), 'text/plain; charset=utf-8', chunked);
  }

  /**
   * Where a new table named `raw` goes: the uploader's namespace (`MyTable` → `<login>:MyTable:MyTable`,
   * `Sales.q1` → `<login>:Sales:q1`). A name that starts with another user's login is refused (403):
   * nobody writes into someone else's namespace.
   */
  private placeOf(raw: string): { owner: string; project: string; table: string } {
    const { owner, project, table } = this.parseName(raw);
    const login = this.login();
    if (owner !== undefined && owner.toLowerCase() !== login.toLowerCase()) {
      throw new ApiError(
        403,
        `Cannot save the table ${platformName(raw)}: the namespace ${owner} is not yours (you are ${login}). Name it ${project}.${table} to save it as ${login}:${project}:${table}.`,
      );
    }
    return { owner: login, project, table };
  }

  /** Streams a CSV into place; re-uploading an existing table replaces its data and keeps its ID. */
  async upload(req: IncomingMessage, raw: string, origin: string): Promise<CreationResult> {
    // Uploading a bare `MyTable` writes `<login>:MyTable:MyTable` (a project named after it), never another project's table.
    const existing = isUuid(raw) ? this.get(raw) : this.uploadTarget(raw);
    const names = existing ? { owner: existing.owner, project: existing.project, table: existing.name } : this.placeOf(raw);
    let id = existing?.id ?? randomUUID();
    // The reference says the body is required: an empty upload is refused and changes nothing.
    const stored = await receiveToFile(req, this.tmpDir, this.fileOf(id), async ({ bytes }) => {
      if (bytes === 0) throw new ApiError(400, `The table ${platformName(raw)} has no data: the body is required (CSV)`);
    });
    // Two first uploads of one name at once: the later one replaces the earlier, one table remains.
    const raced = existing ? undefined : this.uploadTarget(raw);
    if (raced) {
      await rename(this.fileOf(id), this.fileOf(raced.id));
      id = raced.id;
    }
    return this.register(id, names.project, names.table, stored, origin, names.owner);
  }

  /** Seeding: a table from CSV text in memory. */
  async put(project: string, table: string, csv: string, id: string = randomUUID(), owner = ''): Promise<CreationResult> {
    await writeFile(this.fileOf(id), csv);
    const sha256 = createHash('sha256').update(csv).digest('hex');
    return this.register(id, project, table, { bytes: Buffer.byteLength(csv), sha256 }, '', owner);
  }

  private register(id: string, project: string, table: string, stored: Stored, origin: string, owner: string): CreationResult {
    const now = new Date().toISOString();
    const record = this.tables.get(id);
    if (record) Object.assign(record, stored, { updatedOn: now });
    else this.tables.set(id, { id, name: table, project, owner, createdOn: now, updatedOn: now, shares: [], ...stored });
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    let p = [...this.projects.values()].find((x) => same(x.name, project) && same(x.owner, owner));
    if (!p) {
      // A stable id per project name (and owner), so every emulator (and every reset) gives a project the same id.
      const key = owner ? `project:${owner.toLowerCase()}:${project.toLowerCase()}` : `project:${project.toLowerCase()}`;
      p = { id: uuidFrom(key), name: project, owner, tableIds: [], createdOn: now };
      this.projects.set(p.id, p);
    }
    if (!p.tableIds.includes(id)) p.tableIds.push(id);
    const t = this.tables.get(id) as TableRecord;
    const name = fullNameOf(t);
    return { ID: id, name, Markup: `#{x.TableInfo.${id}."${name}"}`, URL: `${origin}${tablePath(t)}` };
  }

  /** The stored table parsed (function inputs only; not streamed). */
  async rows(raw: string): Promise<{ fields: string[]; rows: Record<string, string>[] }> {
    const text = await readFile(this.fileOf(this.get(raw).id), 'utf8');
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    return { fields: parsed.meta.fields ?? [], rows: parsed.data };
  }

  createDashboard(rawName: string, rawTableIds: string, layout: unknown, origin: string, newId: string = randomUUID()): CreationResult {
    const name = platformName(rawName).trim();
    if (!name) throw new ApiError(400, 'Dashboard name is required');
    const ids = rawTableIds
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (ids.length === 0) throw new ApiError(400, 'At least one table is required');
    const tableIds = ids.map((raw) => this.get(raw).id);
    let d = [...this.dashboards.values()].find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (d) Object.assign(d, { tableIds, layout: layout ?? null });
    else {
      d = { id: newId, name, tableIds, layout: layout ?? null, shares: [], createdOn: new Date().toISOString() };
      this.dashboards.set(d.id, d);
    }
    return { ID: d.id, name: d.name, Markup: `#{x.Project.${d.id}."${d.name}"}`, URL: `${origin}/p/${encodeURIComponent(d.name)}` };
  }

  findDashboard(raw: string): DashboardRecord | undefined {
    if (isUuid(raw)) return this.dashboards.get(raw.toLowerCase());
    const name = platformName(raw).toLowerCase();
    return [...this.dashboards.values()].find((d) => d.name.toLowerCase() === name);
  }

  /**
   * Records shares. `strict` (the reference dashboards route) answers 404 for an unknown group;
   * otherwise (the entities route) unknown groups are reported as failed.
   */
  share(target: { shares: Share[] }, groupsParam: string | null, accessParam: string | null, groups: GroupStore, strict: boolean): ShareOutcome {
    const access = accessParam === null || accessParam === '' ? 'View' : accessParam;
    if (access !== 'View' && access !== 'Edit') throw new ApiError(400, `Invalid access "${access}": use View or Edit`);
    const wanted = (groupsParam ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (wanted.length === 0) throw new ApiError(400, 'The groups parameter is required');
    const resolved = wanted.map((w) => ({ w, g: groups.findByIdOrName(w) }));
    const missing = resolved.find((r) => !r.g);
    if (strict && missing) throw new ApiError(404, `Group ${missing.w} not found`);
    const outcome: ShareOutcome = { shared: [], alreadyShared: [], failed: [] };
    for (const { w, g } of resolved) {
      if (!g) {
        outcome.failed.push(w);
        continue;
      }
      const existing = target.shares.find((s) => s.group === g.id);
      if (existing?.access === access) outcome.alreadyShared.push(g.name);
      else {
        if (existing) existing.access = access;
        else target.shares.push({ group: g.id, groupName: g.name, access });
        outcome.shared.push(g.name);
      }
    }
    return outcome;
  }
}
