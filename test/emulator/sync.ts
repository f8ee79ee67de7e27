// POST /public/v1/files/sync/{connector}/{dir}?recursive=&ext= with the client's state `{relPath: eTag}`:
// 204 when the folder holds nothing to sync, else a multipart answer with one part per file — the content
// with `X-File-E-Tag` when new or changed, `X-File-Status: not-modified` when the client has it,
// `X-File-Status: deleted` for a path the client has that the server no longer does.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { Connector, ConnectorFiles } from './files';
import { ApiError } from './http';

interface Part {
  name: string;
  status?: 'deleted' | 'not-modified';
  eTag?: string;
  file?: string;
}

export async function syncFolder(
  res: ServerResponse,
  files: ConnectorFiles,
  c: Connector,
  segments: string[],
  query: { recursive: boolean; ext: string | null },
  clientState: unknown,
): Promise<void> {
  if (clientState !== undefined && (typeof clientState !== 'object' || clientState === null || Array.isArray(clientState))) {
    throw new ApiError(400, 'The body must be a JSON object {relative path: eTag}');
  }
  const known = (clientState ?? {}) as Record<string, unknown>;
  const dir = segments.filter((s) => s !== '');
  const ext = query.ext ? (query.ext.startsWith('.') ? query.ext : `.${query.ext}`).toLowerCase() : undefined;
  const entries = (await files.list(c, dir, query.recursive)).filter((e) => e.isFile && (!ext || e.name.toLowerCase().endsWith(ext)));
  const prefix = dir.length ? `${dir.join('/')}/` : '';
  const parts: Part[] = [];
  const remote = new Set<string>();
  // The ETags (cached digests: a stat each) a few at a time, the parts in the listing's order.
  const eTags: string[] = new Array(entries.length);
  let next = 0;
  const digest = async () => {
    while (next < entries.length) {
      const i = next++;
      eTags[i] = (await files.digest(files.resolve(c, entries[i].path.split('/')))).sha256;
    }
  };
  await Promise.all(Array.from({ length: 8 }, digest));
  entries.forEach((e, i) => {
    const rel = e.path.slice(prefix.length);
    remote.add(rel);
    parts.push(known[rel] === eTags[i] ? { name: rel, status: 'not-modified' } : { name: rel, eTag: eTags[i], file: files.resolve(c, e.path.split('/')) });
  });
  for (const rel of Object.keys(known)) if (!remote.has(rel)) parts.push({ name: rel, status: 'deleted' });
  if (entries.length === 0) {
    res.writeHead(204);
    res.end();
    return;
  }

  const boundary = `emulator-${randomUUID()}`;
  res.writeHead(200, { 'Content-Type': `multipart/mixed; boundary=${boundary}` });
  const write = async (chunk: string | Buffer) => {
    if (!res.write(chunk)) await once(res, 'drain');
  };
  for (const part of parts) {
    const headers = [`Content-Disposition: attachment; filename="${part.name}"`];
    if (part.status) headers.push(`X-File-Status: ${part.status}`);
    if (part.eTag) headers.push(`X-File-E-Tag: ${part.eTag}`, `Content-Type: application/octet-stream`);
    await write(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`);
    if (part.file) for await (const chunk of createReadStream(part.file)) await write(chunk as Buffer);
    await write('\r\n');
  }
  res.end(`--${boundary}--\r\n`);
}
