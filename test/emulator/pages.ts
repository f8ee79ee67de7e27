// Read-only web pages at the addresses the emulator hands out (creation results' `URL`), so "Open in
// Browser" in the demo lands on something: a table with its first rows, a project or dashboard with
// its tables, a group with its members. Real servers shape project links as
// `/p/{namespace}.{project}/{view}`; the emulator answers `/p/{project}/{table}`, `/p/{project or
// dashboard}` (also with a `namespace.` prefix), `/groups` (every group and person, linked) and
// `/groups/{id or name}` (real servers browse groups under `/groups`). Everything shown is HTML-escaped. No key is needed (a browser has none).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendBody } from './http';
import type { EmulatorState } from './state';
import { type DashboardRecord, fullNameOf, type ProjectRecord, type TableRecord, tablePath } from './tables';

/** How many rows a table page shows. */
export const PAGE_ROWS = 20;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const STYLE =
  'body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}' +
  'td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f3f3f3}.note{color:#666}';

function page(title: string, body: string): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} — Datagrok emulator</title>` +
    `<style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}` +
    '<p class="note">A read-only page of the Datagrok emulator (test/emulator), standing in for the platform\'s web view.</p></body></html>'
  );
}

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
const tableHref = (t: TableRecord) => tablePath(t);

function list(items: string[], empty: string): string {
  return items.length ? `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : `<p>${escapeHtml(empty)}</p>`;
}

function tablesList(state: EmulatorState, ids: string[]): string {
  const rows = ids.flatMap((id) => {
    const t = state.tables.tables.get(id);
    return t ? [`${link(tableHref(t), fullNameOf(t))} <span class="note">(${t.bytes.toLocaleString('en-US')} bytes)</span>`] : [];
  });
  return list(rows, 'No tables.');
}

async function tablePage(state: EmulatorState, t: TableRecord): Promise<string> {
  const { fields, rows } = await state.tables.rows(t.id);
  const head = `<tr>${fields.map((f) => `<th>${escapeHtml(f)}</th>`).join('')}</tr>`;
  const body = rows
    .slice(0, PAGE_ROWS)
    .map((r) => `<tr>${fields.map((f) => `<td>${escapeHtml(r[f] ?? '')}</td>`).join('')}</tr>`)
    .join('');
  const shown = Math.min(rows.length, PAGE_ROWS);
  const summary = `${rows.length.toLocaleString('en-US')} rows × ${fields.length} columns${rows.length > shown ? `; the first ${shown} shown` : ''}. Project ${link(`/p/${encodeURIComponent(t.owner ? `${t.owner}.${t.project}` : t.project)}`, t.project)}.`;
  return page(`Table ${fullNameOf(t)}`, `<p>${summary}</p><table>${head}${body}</table>`);
}

function projectPage(state: EmulatorState, p: ProjectRecord | DashboardRecord, kind: 'Project' | 'Dashboard'): string {
  const shares =
    'shares' in p && p.shares.length
      ? `<h2>Shared with</h2>${list(
          p.shares.map((s) => escapeHtml(`${s.groupName || s.group} (${s.access})`)),
          '',
        )}`
      : '';
  return page(`${kind} ${p.name}`, `<h2>Tables</h2>${tablesList(state, p.tableIds)}${shares}`);
}

function groupPage(state: EmulatorState, idOrName: string): string | undefined {
  const { groups } = state;
  const g = groups.findByIdOrName(idOrName);
  if (!g) return undefined;
  const entry = (other: { id: string; name: string; friendlyName: string; personal: boolean }, isAdmin: boolean) =>
    `${link(`/groups/${encodeURIComponent(other.id)}`, other.friendlyName && other.friendlyName !== other.name ? `${other.friendlyName} (${other.name})` : other.name)}` +
    ` <span class="note">${other.personal ? 'user' : 'group'}${isAdmin ? ', admin' : ''}</span>`;
  const members = groups.childrenOf(g.id).map((r) => entry(groups.get(r.childId), r.isAdmin));
  const parents = groups.parentsOf(g.id).map((r) => entry(groups.get(r.parentId), r.isAdmin));
  const about = g.description ? `<p>${escapeHtml(g.description)}</p>` : '';
  return page(
    `${g.personal ? 'User' : 'Group'} ${g.friendlyName || g.name}`,
    `${about}<h2>Members</h2>${list(members, 'No members.')}<h2>Member of</h2>${list(parents, 'No groups.')}`,
  );
}

/** `/groups`: the server's groups and people (the first 500 of each by name), linked to their pages. */
function groupsIndexPage(state: EmulatorState): string {
  const all = [...state.groups.groups.values()].sort((a, b) => a.name.localeCompare(b.name));
  const section = (personal: boolean) => {
    const some = all.filter((g) => g.personal === personal);
    const items = some
      .slice(0, 500)
      .map((g) => link(`/groups/${encodeURIComponent(g.id)}`, g.friendlyName && g.friendlyName !== g.name ? `${g.friendlyName} (${g.name})` : g.name));
    const more = some.length > items.length ? `<p class="note">and ${(some.length - items.length).toLocaleString('en-US')} more</p>` : '';
    return `${list(items, personal ? 'No people.' : 'No groups.')}${more}`;
  };
  return page('Groups', `<h2>Groups</h2>${section(false)}<h2>People</h2>${section(true)}`);
}

/** `ns.name` as real links spell it, or the plain name. */
function candidates(segment: string): string[] {
  const dot = segment.lastIndexOf('.');
  return dot > 0 ? [segment, segment.slice(dot + 1)] : [segment];
}

function findProject(state: EmulatorState, segment: string): { p: ProjectRecord | DashboardRecord; kind: 'Project' | 'Dashboard' } | undefined {
  for (const name of candidates(segment)) {
    const lower = name.toLowerCase();
    const d = [...state.tables.dashboards.values()].find((x) => x.name.toLowerCase() === lower || x.id === lower);
    if (d) return { p: d, kind: 'Dashboard' };
    const p = [...state.tables.projects.values()].find((x) => x.name.toLowerCase() === lower || x.id === lower);
    if (p) return { p, kind: 'Project' };
  }
  return undefined;
}

function findTableIn(state: EmulatorState, projectSegment: string, table: string): TableRecord | undefined {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  // `owner.project` (as real links spell it) first, then the project alone.
  const dot = projectSegment.lastIndexOf('.');
  const owner = dot > 0 ? projectSegment.slice(0, dot) : undefined;
  const tables = [...state.tables.tables.values()];
  for (const project of candidates(projectSegment)) {
    const named = tables.filter((t) => same(t.project, project) && same(t.name, table));
    const found = named.find((t) => owner !== undefined && same(t.owner, owner)) ?? named[0];
    if (found) return found;
  }
  // A dashboard's view: `/p/{dashboard}/{table}` names one of its tables.
  const found = findProject(state, projectSegment);
  return found?.p.tableIds.map((id) => state.tables.tables.get(id)).find((t) => t?.name.toLowerCase() === table.toLowerCase());
}

/** The page for a GET outside `/api/`, or undefined when the path is not a page's. */
async function render(state: EmulatorState, segs: string[]): Promise<{ status: number; html: string } | undefined> {
  const [kind, first, second, ...more] = segs;
  if (kind === 'groups' && (first === undefined || first === '') && second === undefined) return { status: 200, html: groupsIndexPage(state) };
  if (more.length > 0 || first === undefined || first === '') return undefined;
  const missing = (what: string) => ({ status: 404, html: page('Not found', `<p>${escapeHtml(what)} is not on this server.</p>`) });
  if (kind === 'p' && (second === undefined || second === '')) {
    const found = findProject(state, first);
    return found ? { status: 200, html: projectPage(state, found.p, found.kind) } : missing(`The project or dashboard "${first}"`);
  }
  if (kind === 'p' && second !== undefined) {
    const t = findTableIn(state, first, second);
    return t ? { status: 200, html: await tablePage(state, t) } : missing(`The table "${first}/${second}"`);
  }
  if (kind === 'groups' && second === undefined) {
    const html = groupPage(state, first);
    return html ? { status: 200, html } : missing(`The group "${first}"`);
  }
  return undefined;
}

/** Serves a page for `GET /p/…` or `/groups/…`; false when the request is not for a page. */
export async function servePage(state: EmulatorState, req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!rawPath.startsWith('/p/') && !rawPath.startsWith('/groups/') && rawPath !== '/groups') return false;
  let segs: string[];
  try {
    segs = rawPath.slice(1).split('/').map(decodeURIComponent);
  } catch {
    return false;
  }
  const result = await render(state, segs);
  if (!result) return false;
  sendBody(res, result.status, result.html, 'text/html; charset=utf-8');
  return true;
}
