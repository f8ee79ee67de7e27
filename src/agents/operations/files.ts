// Connector files: list a folder, read a text file (size-capped), write one.
import { badInput } from '../../api/errors';
import { hostOf } from '../../api/names';
import type { Confirmation, OperationContext } from './context';
import { type Input, integer, json, optionalText, text } from './inputs';

const DEFAULT_READ = 64 * 1024;

function cleanPath(path: string | undefined): string {
  return (path ?? '').replace(/^\/+|\/+$/g, '');
}

export async function listFiles(ctx: OperationContext, input: Input): Promise<string> {
  const connector = optionalText(input, 'connector');
  if (!connector) {
    const shares = await ctx.catalog.fileShares();
    return json({ fileShares: shares.map((c) => ({ connector: c.nqName, description: c.description })) });
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

export async function readFile(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const connector = text(input, 'connector');
  const path = cleanPath(text(input, 'path'));
  const maxBytes = integer(input, 'maxBytes', DEFAULT_READ, 1, 1024 * 1024);
  const api = await ctx.client();
  const bytes = await api.readFile(connector, path, { maxBytes, signal });
  if (bytes.subarray(0, 8192).includes(0)) {
    throw badInput(`${connector}/${path} is a binary file (${bytes.length} bytes): only text files can be read here.`);
  }
  return new TextDecoder('utf-8').decode(bytes);
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
