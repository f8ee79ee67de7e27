// Connector files: list a folder, read a text file (size-capped), write one.
import { badInput } from '../../api/errors';
import { hostOf } from '../../api/names';
import type { Writable } from 'node:stream';
import type { Confirmation, OperationContext } from './context';
import { downloadPart } from './downloads';
import { cacheNote } from './freshness';
import { summarizeCsv } from './summary';
import { TABLE_READ_LIMIT } from './tables';
import { type Input, integer, json, optionalText, text } from './inputs';

const DEFAULT_READ = 16 * 1024;
const MAX_READ = 64 * 1024;
const CSV_FILE = /\.(csv|tsv)$/i;
/** Kept equal to MAX_ANSWER_CHARS in index.ts (which imports this file). */
const MAX_ANSWER_CHARS = 100_000;

function cleanPath(path: string | undefined): string {
  return (path ?? '').replace(/^\/+|\/+$/g, '');
}

export async function listFiles(ctx: OperationContext, input: Input): Promise<string> {
  const connector = optionalText(input, 'connector');
  if (!connector) {
    const started = Date.now();
    const shares = await ctx.catalog.fileShares();
    return json({ fileShares: shares.map((c) => ({ connector: c.nqName, description: c.description })), ...cacheNote(shares, started) });
  }
  const dir = cleanPath(optionalText(input, 'path'));
  const api = await ctx.client();
  const entries = await api.listFiles(connector, dir);
  return json({
    connector,
    path: dir,
    entries: entries.map((e) => ({ path: e.path, file: e.isFile, size: e.size, updatedOn: e.updatedOn })),
  });
}

/** Where a page may end: not inside a UTF-8 sequence (the next page starts at the next character). */
function characterEnd(data: Buffer): number {
  let end = data.length;
  // Back off over continuation bytes (10xxxxxx) to the lead byte; drop it unless its sequence is whole.
  let i = end - 1;
  while (i >= 0 && i > end - 4 && (data[i] & 0xc0) === 0x80) i--;
  if (i >= 0 && data[i] >= 0xc0) {
    const need = data[i] >= 0xf0 ? 4 : data[i] >= 0xe0 ? 3 : 2;
    if (end - i < need) end = i;
  }
  return end;
}

export async function readFile(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const connector = text(input, 'connector');
  const path = cleanPath(text(input, 'path'));
  const paged = input['offset'] !== undefined || input['length'] !== undefined;
  const offset = integer(input, 'offset', 0, 0, 1024 * 1024 * 1024);
  let length = integer(input, 'length', DEFAULT_READ, 1, MAX_READ);
  const rows = integer(input, 'rows', 20, 0, 200);
  const file = `${connector}/${path}`;
  const api = await ctx.client();
  const download = (stream: Writable, stop: AbortSignal) => api.downloadFile(connector, path, { stream }, { signal: stop });
  if (!paged && CSV_FILE.test(path)) {
    const part = await downloadPart(download, 0, TABLE_READ_LIMIT, signal);
    return json({ file, ...summarizeCsv(part.data.toString('utf8'), rows, !part.complete), bytes: part.total, note: 'A CSV summary: pass offset or length to read the text.' });
  }
  const part = await downloadPart(download, offset, length, signal);
  if (part.data.subarray(0, 8192).includes(0)) {
    throw badInput(`${file} is a binary file: only text files can be read here.`);
  }
  if (offset > 0 && part.data.length === 0 && part.complete) throw badInput(`"offset" ${offset} is past the end of ${file} (${part.total} bytes).`);
  // The answer stays within one cap however much JSON escapes the text.
  for (;;) {
    const data = part.data.subarray(0, part.complete && length >= part.data.length ? part.data.length : characterEnd(part.data.subarray(0, length)));
    const more = !part.complete || offset + data.length < (part.total ?? 0);
    const answer = json({ file, offset, bytes: data.length, text: data.toString('utf8'), size: part.total, nextOffset: more ? offset + data.length : undefined });
    if (answer.length <= MAX_ANSWER_CHARS || length <= 1024) return answer;
    length = Math.floor(length / 2);
  }
}

function planWrite(input: Input) {
  const connector = text(input, 'connector');
  const path = cleanPath(text(input, 'path'));
  if (path === '') throw badInput('"path" must name a file inside the connector.');
  const content = input['content'];
  if (typeof content !== 'string') throw badInput('"content" is required: the text of the file.');
  return { connector, path, data: Buffer.from(content, 'utf8') };
}

export async function confirmWrite(ctx: OperationContext, input: Input): Promise<Confirmation> {
  const { connector, path, data } = planWrite(input);
  const api = await ctx.client();
  return {
    title: `Write ${connector}/${path}?`,
    message: `Write ${data.length.toLocaleString('en-US')} bytes to **${connector}/${path}** on ${hostOf(api.baseUrl)}. An existing file of that path is replaced.`,
  };
}

export async function writeFile(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const { connector, path, data } = planWrite(input);
  const api = await ctx.client();
  await api.uploadFile(connector, path, { data }, { signal });
  return json({ written: `${connector}/${path}`, bytes: data.length });
}
