// Push a local CSV as a table; read a table back as a summary.
import { hostOf } from '../../api/names';
import { describeShape } from '../../platform/tables/csvSample';
import { inspectSource, pushCsv } from '../../platform/tables/push';
import { checkTableName } from '../../platform/tables/names';
import type { Confirmation, OperationContext } from './context';
import { downloadPart } from './downloads';
import { type Input, integer, json, optionalText, text } from './inputs';
import { summarizeCsv } from './summary';

/** The most of a table held in memory to summarise it; the download stops there. */
export const TABLE_READ_LIMIT = 8 * 1024 * 1024;

async function planPush(ctx: OperationContext, input: Input) {
  const csv = await ctx.files.csv(optionalText(input, 'file'));
  const name = checkTableName(optionalText(input, 'name') ?? csv.defaultName);
  const shape = await inspectSource(csv.source, csv.what);
  return { csv, name, shape };
}

export async function confirmPush(ctx: OperationContext, input: Input): Promise<Confirmation> {
  const { csv, name, shape } = await planPush(ctx, input);
  const api = await ctx.client();
  const size = `${describeShape(shape)}, ${shape.bytes.toLocaleString('en-US')} bytes`;
  const lines = [`Upload ${csv.what} (${size}) to ${hostOf(api.baseUrl)} as table **${name}**. A table of that name is replaced.`];
  if (!ctx.files.trusted) lines.push('', 'This workspace is not trusted: push the file only if you trust it.');
  return { title: `Push ${csv.what} as table ${name}?`, message: lines.join('\n') };
}

export async function pushTable(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const { csv, name, shape } = await planPush(ctx, input);
  const api = await ctx.client();
  const { result } = await pushCsv(api, csv.source, name, { shape, signal });
  await ctx.remember?.('tables', api.baseUrl, result);
  return json({ id: result.ID, name: result.name, url: result.URL, shape: describeShape(shape), from: csv.what });
}

export async function openTable(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const table = text(input, 'table');
  const rows = integer(input, 'rows', 20, 0, 200);
  const api = await ctx.client();
  const part = await downloadPart((stream, stop) => api.downloadTable(table, { stream }, { signal: stop }), 0, TABLE_READ_LIMIT, signal);
  return json({ table, ...summarizeCsv(part.data.toString('utf8'), rows, !part.complete), bytes: part.total });
}
