// A function call whose dataframe answer goes to a file as it arrives: the answer is one JSON string (the
// CSV) or CSV text as is, written a chunk at a time (never held whole, and not bounded by the answer limit);
// any other answer (several outputs, a number, an object) is read and parsed as callFunction reads it.
import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import { parseJsonBody } from './bodies';
import { DatagrokError } from './errors';
import type { FailureContext } from './failures';
import { callRequest } from './functions';
import type { Transport } from './http';
import { JsonStringDecoder } from './jsonStringStream';
import type { RouteChoice } from './routes';
import type { CallOptions } from './types';
import { answerTooLarge } from './answers';

/** The answer written to the file (its value's bytes), or, when it was not one string or text, its value. */
export type CallToFile = { file: string; bytes: number } | { value: unknown };

/** Text that is not JSON is read this far before it is taken for CSV and written to the file. */
const SNIFF = 64 * 1024;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

async function consume(body: Readable, contentType: string | undefined, ctx: FailureContext, file: string, limit: number): Promise<CallToFile> {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let mode: 'start' | 'string' | 'json' | 'text' | 'raw' = 'start';
  let decoder: JsonStringDecoder | undefined;
  let out: fs.promises.FileHandle | undefined;
  let written = 0;
  const write = async (bytes: Buffer) => {
    out ??= await fs.promises.open(file, 'w');
    if (bytes.length === 0) return;
    await out.write(bytes);
    written += bytes.length;
  };
  try {
    for await (const piece of body) {
      let chunk = piece as Buffer;
      if (mode === 'start') {
        let i = 0;
        while (i < chunk.length && isSpace(chunk[i])) i++;
        if (i === chunk.length) continue;
        const first = chunk[i];
        mode = first === 0x22 ? 'string' : first === 0x7b || first === 0x5b ? 'json' : 'text';
        if (mode === 'string') {
          decoder = new JsonStringDecoder();
          chunk = chunk.subarray(i + 1);
        }
      }
      if (mode === 'string') await write((decoder as JsonStringDecoder).push(chunk));
      else if (mode === 'raw') await write(chunk);
      else {
        held.push(chunk);
        heldBytes += chunk.length;
        if (mode === 'json' && heldBytes > limit) throw answerTooLarge(ctx, limit, 200);
        if (mode === 'text' && heldBytes > SNIFF) {
          mode = 'raw';
          for (const h of held.splice(0)) await write(h);
        }
      }
    }
    if (mode === 'string') {
      if (!decoder?.done || decoder.trailing)
        throw new DatagrokError('unexpectedAnswer', `${ctx.what} failed: the server's answer ended before its text did (or went on after it). Run it again.`);
      await write(Buffer.alloc(0));
      return { file, bytes: written };
    }
    if (mode === 'raw') return { file, bytes: written };
    return { value: parseJsonBody(Buffer.concat(held).toString('utf8'), contentType, ctx, true) };
  } finally {
    await out?.close();
  }
}

export async function callFunctionToFile(
  http: Transport,
  route: RouteChoice,
  name: string,
  params: Record<string, unknown>,
  file: string,
  options: CallOptions = {},
): Promise<CallToFile> {
  const request = callRequest(name, params, options.signal);
  const answer = await route.run((r, afterMissing) =>
    http.stream({ ...request(r, afterMissing), callAnswer: true }, (stream, info, _commit, ctx) => consume(stream, info.contentType, ctx, file, http.answerLimit), {
      value: false,
    }),
  );
  return answer;
}
