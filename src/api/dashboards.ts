// Dashboards (projects): creation from tables, sharing with groups or users.
import { readCreationResult } from './creation';
import { badInput, DatagrokError } from './errors';
import type { Transport } from './http';
import { idSegment, nameListSegment, nameSegment } from './names';
import type { RouteChoice } from './routes';
import type { CallOptions, CreationResult, ShareAccess } from './types';

export async function createDashboard(http: Transport, name: string, tableIds: string[], layout?: object, options: CallOptions = {}): Promise<CreationResult> {
  const what = `Creating dashboard ${name}`;
  const path = `/public/v1/dashboards/${nameSegment(name, 'dashboard name')}/${nameListSegment(tableIds, 'table ID')}`;
  let body: string | undefined;
  if (layout !== undefined && layout !== null) {
    if (typeof layout !== 'object') throw badInput(`${what} failed: the layout must be a JSON object.`);
    try {
      body = JSON.stringify(layout);
    } catch (err) {
      throw new DatagrokError('badInput', `${what} failed: the layout cannot be written as JSON.`, { cause: err });
    }
  }
  const result = await http.json<unknown>({
    method: 'POST',
    path,
    what,
    signal: options.signal,
    body,
    contentType: body === undefined ? undefined : 'application/json',
  });
  return readCreationResult(result, what);
}

interface ShareAnswer {
  failed?: unknown;
}

export async function shareDashboard(http: Transport, route: RouteChoice, id: string, groups: string[], access: ShareAccess = 'View', options: CallOptions = {}): Promise<void> {
  const what = `Sharing dashboard ${id}`;
  const segment = idSegment(id, 'dashboard ID');
  if (!Array.isArray(groups) || groups.length === 0 || groups.some((g) => typeof g !== 'string' || g.trim() === '')) {
    throw badInput(`${what} failed: name at least one group or user to share with.`);
  }
  if (access !== 'View' && access !== 'Edit') {
    throw badInput(`${what} failed: access must be View or Edit, not "${access}".`);
  }
  const query = { groups: groups.map((g) => g.trim()).join(','), access };
  await route.run(async (r, afterMissing) => {
    if (r === 0) {
      // The reference shares with a GET and describes no body.
      await http.empty({ method: 'GET', path: `/public/v1/dashboards/${segment}/shares`, query, what, signal: options.signal });
      return;
    }
    const answer = await http.json<ShareAnswer>({
      method: 'POST',
      path: `/public/v1/entities/${segment}/shares`,
      query,
      what,
      signal: options.signal,
      hintMissingApi: afterMissing || undefined,
    });
    const failed = Array.isArray(answer?.failed) ? answer.failed.map(describe).filter((s) => s !== '') : [];
    if (failed.length > 0) {
      throw new DatagrokError('server', `${what} failed: it could not be shared with ${failed.join(', ')}. Check the group names.`, {
        method: 'POST',
        path: `/public/v1/entities/${segment}/shares`,
      });
    }
  });
}

function describe(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const name = o['friendlyName'] ?? o['name'] ?? o['id'];
    return typeof name === 'string' ? name : '';
  }
  return '';
}
