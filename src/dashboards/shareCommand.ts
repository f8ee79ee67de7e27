// datagrok.dashboards.share: a dashboard (from the Dashboards view, picked from the server's, made here,
// or a typed ID) shared with groups or users, found on the server as the user types, with View or Edit
// access.
import * as vscode from 'vscode';
import type { Group, ShareAccess } from '../api/types';
import type { DatagrokApi } from '../api/datagrokApi';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import type { Services } from '../services';
import { pickGroupsByLookup } from '../ui/groupLookup';
import { pickEntity } from '../ui/entityPick';
import { EntityNode } from '../ui/entityNodes';
import { dashboardSearch } from '../ui/entitySearch';
import type { RecentEntities } from '../platform/recent';
import { displayName } from '../platform/groups/model';
import { shareCandidates } from '../platform/groups/sharing';
import { askChoice, BACK } from '../ui/quickSteps';

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

interface Step {
  step: number;
  totalSteps: number;
}

/** Groups and users to share with, looked up on the server as the user types; several can be ticked. */
async function pickGroups(services: Services, client: DatagrokApi, step: Step): Promise<Group[]> {
  // Asked beside the first lookup, not before the pick shows; unknown: nobody is left out (the lookup
  // itself says when the server is down).
  const me = services.connection.currentUser().then(
    (user) => user.id,
    () => undefined,
  );
  return pickGroupsByLookup({
    // The placeholder is short (a long one is cut off); the title says what to do.
    title: 'Share Dashboard: with whom (tick one or more, then Enter)',
    placeholder: 'Find groups or users',
    ...step,
    canSelectMany: true,
    ignoreFocusOut: true,
    lookupEmpty: true,
    lookup: async (text, signal) => shareCandidates(await client.lookupGroups(text || undefined, { signal }), await me),
    noMatch: (text) => (text ? `No group or user matches "${text}"` : 'No groups or users found'),
    log: services.log,
  });
}

async function askAccess(step: Step): Promise<ShareAccess> {
  const items = [
    { label: 'View' as ShareAccess, description: 'can open the dashboard' },
    { label: 'Edit' as ShareAccess, description: 'can open and change it' },
  ];
  const picked = await askChoice(items, { title: 'Share Dashboard: access', ...step });
  if (picked === BACK) throw new UserCancelled();
  return picked.label;
}

/** The name of a dashboard picked from the server's list (already loaded for the pick), so messages name it. */
async function listedName(services: Services, id: string): Promise<{ name: string } | undefined> {
  try {
    return (await services.platform.catalog.listDashboards()).find((d) => d.id === id);
  } catch {
    return undefined;
  }
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
    // Steps: the dashboard (unless given), the groups and users, the access.
    const given = inv.arg instanceof DashboardTarget ? inv.arg.id : inv.arg instanceof EntityNode && inv.arg.kind === 'dashboard' ? inv.arg.entityId : undefined;
    const totalSteps = given === undefined ? 3 : 2;
    const first = totalSteps - 2;
    id =
      given ??
      (await pickEntity(dashboards.list(client.baseUrl), {
        title: 'Share Dashboard: which dashboard',
        placeholder: 'Find a dashboard, or type its ID',
        search: dashboardSearch(services.platform.catalog),
        step: 1,
        totalSteps,
      }));
    const picked = await pickGroups(services, client, { step: first + 1, totalSteps });
    groups = picked.map((g) => g.id);
    groupLabels = picked.map(displayName);
    access = await askAccess({ step: first + 2, totalSteps });
  }
  const known = dashboards.find(client.baseUrl, id) ?? (inv.arg instanceof EntityNode ? { name: inv.arg.row.name } : inv.options ? undefined : await listedName(services, id));
  const label = known ? `${known.name} (${id})` : id;
  await inv.withProgress(`Sharing dashboard ${known?.name ?? id}`, (_progress, signal) => client.shareDashboard(id, groups, access, { signal }));
  services.log.info(`Shared dashboard ${label} with ${groupLabels.join(', ')} (${access})`);
  void vscode.window.showInformationMessage(`Shared dashboard ${known?.name ?? id} with ${groupLabels.join(', ')} (${access} access).`);
  return undefined;
}
