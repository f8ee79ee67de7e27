// The archive `grok publish` uploads, read with yauzl (a maintained zip reader): file path → bytes.
import type { IncomingMessage } from 'node:http';
import * as yauzl from 'yauzl';
import { ApiError } from './http';

/** The request body, whole (a package is at most a few tens of MB; larger is refused). */
export async function readBody(req: IncomingMessage, limit = 512 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, `The package archive is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The archive's files (folders left out), paths with `/`; not a zip → 400. */
export function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const bad = (e: unknown) => new ApiError(400, `The package archive is not a valid zip file: ${(e as Error)?.message ?? e}`);
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(bad(err));
      const files = new Map<string, Buffer>();
      zip.on('error', (e) => reject(bad(e)));
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.replaceAll('\\', '/');
        if (name.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(bad(e));
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('error', (x) => reject(bad(x)));
          stream.on('end', () => {
            files.set(name, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
