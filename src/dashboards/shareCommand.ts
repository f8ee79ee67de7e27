// datagrok.dashboards.share: a dashboard (from the Dashboards view, picked from the server's, made here,
// or a typed ID) shared with groups or users, found on the server as the user types, with View or Edit
// access.
import * as vscode from 'vscode';
import type { DatagrokApi, Group, ShareAccess } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import type { Services } from '../services';
import { pickGroupsByLookup } from '../ui/groupLookup';
import { pickEntity } from '../ui/entityPick';
import { EntityNode } from '../ui/entityNodes';
import { dashboardSearch } from '../ui/entitySearch';
import type { RecentEntities } from '../platform/recent';
import { displayName } from '../platform/groups';

export interface ShareDashboardOptions {
  /** The dashboard's ID (or name). */
  id: string;
  /** Group or user IDs or names. */
  groups: string[];
  access?: ShareAccess;
}

/** An interactive invocation about one dashboard (e.g. "Share…" after creating it): asks the rest. */
export class DashboardTarget {
  constructor(readonly id: string) {}
}

const ACCESS: readonly ShareAccess[] = ['View', 'Edit'];

function checkOptions(options: ShareDashboardOptions): { id: string; groups: string[]; access: ShareAccess } {
  if (typeof options.id !== 'string' || options.id.trim() === '') throw badInput('The option "id" (the dashboard ID) is required.');
  if (!Array.isArray(options.groups) || options.groups.length === 0) {
    throw badInput('The option "groups" must list at least one group or user (ID or name).');
  }
  const bad = options.groups.find((g) => typeof g !== 'string' || g.trim() === '' || g.includes(','));
  if (bad !== undefined) throw badInput(`Invalid group "${String(bad)}" in "groups": each must be a group or user ID or name (no commas).`);
  const access = options.access ?? 'View';
  if (!ACCESS.includes(access)) throw badInput(`Invalid access "${String(access)}": use "View" or "Edit".`);
  return { id: options.id.trim(), groups: options.groups.map((g) => g.trim()), access };
}

/** Groups and users to share with, looked up on the server as the user types; several can be ticked. */
function pickGroups(client: DatagrokApi, log: vscode.LogOutputChannel): Promise<Group[]> {
  return pickGroupsByLookup({
    title: 'Share Dashboard: groups and users',
    placeholder: 'Type to find groups or users on the server; tick one or more, then press Enter',
    canSelectMany: true,
    ignoreFocusOut: true,
    lookupEmpty: true,
    lookup: (text, signal) => client.lookupGroups(text || undefined, { signal }),
    noMatch: (text) => (text ? `No group or user matches "${text}"` : 'No groups or users found'),
    log,
  });
}

async function askAccess(): Promise<ShareAccess> {
  const items = [
    { label: 'View' as ShareAccess, description: 'can open the dashboard' },
    { label: 'Edit' as ShareAccess, description: 'can open and change it' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Share Dashboard: access', ignoreFocusOut: true });
  if (!picked) throw new UserCancelled();
  return picked.label;
}

export async function shareDashboardCommand(services: Services, dashboards: RecentEntities, inv: CommandInvocation<ShareDashboardOptions>): Promise<undefined> {
  const client = await services.connection.client();
  let id: string;
  let groups: string[];
  let access: ShareAccess;
  let groupLabels: string[];
  if (inv.options) {
    ({ id, groups, access } = checkOptions(inv.options));
    groupLabels = groups;
  } else {
    id =
      inv.arg instanceof DashboardTarget
        ? inv.arg.id
        : inv.arg instanceof EntityNode && inv.arg.kind === 'dashboard'
          ? inv.arg.entityId
          : await pickEntity(dashboards.list(client.baseUrl), {
              title: 'Share Dashboard',
              placeholder: 'Pick a dashboard (type to search the server), or type a dashboard ID',
              search: dashboardSearch(services.platform.catalog),
            });
    const picked = await pickGroups(client, services.log);
    groups = picked.map((g) => g.id);
    groupLabels = picked.map(displayName);
    access = await askAccess();
  }
  const known = dashboards.find(client.baseUrl, id) ?? (inv.arg instanceof EntityNode ? { name: inv.arg.row.name } : undefined);
  const label = known ? `${known.name} (${id})` : id;
  await inv.withProgress(`Sharing dashboard ${known?.name ?? id}`, (_progress, signal) => client.shareDashboard(id, groups, access, { signal }));
  services.log.info(`Shared dashboard ${label} with ${groupLabels.join(', ')} (${access})`);
  void vscode.window.showInformationMessage(`Shared dashboard ${known?.name ?? id} with ${groupLabels.join(', ')} (${access} access).`);
  return undefined;
}
