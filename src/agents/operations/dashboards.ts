// Create a dashboard from tables; share one with groups.
import { badInput } from '../../api/errors';
import { hostOf } from '../../api/names';
import type { ShareAccess } from '../../api/types';
import type { Confirmation, OperationContext } from './context';
import { type Input, json, optionalText, text, texts } from './inputs';

function planCreate(input: Input) {
  return { name: text(input, 'name'), tables: texts(input, 'tables') };
}

export async function confirmCreateDashboard(ctx: OperationContext, input: Input): Promise<Confirmation> {
  const { name, tables } = planCreate(input);
  const api = await ctx.client();
  return {
    title: `Create dashboard ${name}?`,
    message: `Create the dashboard **${name}** on ${hostOf(api.baseUrl)} from ${tables.length === 1 ? 'table' : 'tables'} ${tables.join(', ')}.`,
  };
}

export async function createDashboard(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const { name, tables } = planCreate(input);
  const api = await ctx.client();
  const result = await api.createDashboard(name, tables, undefined, { signal });
  await ctx.remember?.('dashboards', api.baseUrl, result);
  return json({ id: result.ID, name: result.name, url: result.URL });
}

function planShare(input: Input): { id: string; groups: string[]; access: ShareAccess } {
  const access = optionalText(input, 'access') ?? 'View';
  if (access !== 'View' && access !== 'Edit') throw badInput(`"access" must be View or Edit, not "${access}".`);
  const groups = texts(input, 'groups');
  const bad = groups.find((g) => g.includes(','));
  if (bad) throw badInput(`"groups" lists "${bad}": give each group or user as its own item (no commas).`);
  return { id: text(input, 'dashboard'), groups, access };
}

export async function confirmShare(ctx: OperationContext, input: Input): Promise<Confirmation> {
  const { id, groups, access } = planShare(input);
  const api = await ctx.client();
  return {
    title: `Share dashboard ${id}?`,
    message: `Give **${groups.join(', ')}** ${access} access to dashboard ${id} on ${hostOf(api.baseUrl)}.`,
  };
}

export async function shareDashboard(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const { id, groups, access } = planShare(input);
  const api = await ctx.client();
  await api.shareDashboard(id, groups, access, { signal });
  return json({ shared: id, with: groups, access });
}
