// A function call whose dataframe answer goes to a file as it arrives: the answer is one JSON string (the
// CSV) or CSV text as is, written a chunk at a time (never held whole, and not bounded by the answer limit).
// Given a file for each string, the answer of several outputs (a JSON array) is read element by element,
// each string to its own file. Any other answer (a number, an object) is read and parsed as callFunction reads it.
import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import { parseJsonBody } from './bodies';
import { DatagrokError } from './errors';
import type { FailureContext } from './failures';
import { callRequest } from './functions';
import type { Transport } from './http';
import { type ArrayElement, JsonArrayReader } from './jsonArrayStream';
import { JsonStringDecoder } from './jsonStringStream';
import type { RouteChoice } from './routes';
import type { CallOptions } from './types';
import { answerTooLarge } from './answers';

/**
 * The answer written to the file (its value's bytes); the elements of an array answer, each string in a file
 * of its own (when the call was given a file for each); or, when it was none of these, its value.
 */
export type CallToFile = { file: string; bytes: number } | { elements: ArrayElement[] } | { value: unknown };

/** Where the answer goes: one file; or a new file for each string (the one string, or each of an array's). */
export type AnswerFiles = string | (() => Promise<string>);

/** Text that is not JSON is read this far before it is taken for CSV and written to the file. */
const SNIFF = 64 * 1024;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

const unexpected = (ctx: FailureContext, why: string) =>
  new DatagrokError('unexpectedAnswer', `${ctx.what} failed: the server's answer is not the list of outputs it should be (${why}). Run it again.`);

async function consumeArray(body: AsyncIterable<Buffer>, first: Buffer, ctx: FailureContext, nextFile: () => Promise<string>, limit: number): Promise<CallToFile> {
  const reader = new JsonArrayReader(
    nextFile,
    limit,
    (why) => unexpected(ctx, why),
    () => answerTooLarge(ctx, limit, 200),
  );
  try {
    await reader.push(first);
    for await (const piece of body) await reader.push(piece);
    if (!reader.done) throw unexpected(ctx, 'it ended before its closing "]"');
    return { elements: reader.elements };
  } finally {
    await reader.abort();
  }
}

async function consume(body: Readable, contentType: string | undefined, ctx: FailureContext, files: AnswerFiles, limit: number): Promise<CallToFile> {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let mode: 'start' | 'string' | 'json' | 'text' | 'raw' = 'start';
  let decoder: JsonStringDecoder | undefined;
  let out: fs.promises.FileHandle | undefined;
  let file = typeof files === 'string' ? files : '';
  let written = 0;
  const write = async (bytes: Buffer) => {
    if (!out) {
      if (typeof files !== 'string') file = await files();
      out = await fs.promises.open(file, 'w');
    }
    if (bytes.length === 0) return;
    await out.write(bytes);
    written += bytes.length;
  };
  // One iterator of the body, which an array answer's reader goes on with.
  const pieces = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const rest: AsyncIterable<Buffer> = { [Symbol.asyncIterator]: () => pieces };
  try {
    for await (const piece of rest) {
      let chunk = piece;
      if (mode === 'start') {
        let i = 0;
        while (i < chunk.length && isSpace(chunk[i])) i++;
        if (i === chunk.length) continue;
        const first = chunk[i];
        if (first === 0x5b && typeof files !== 'string') return await consumeArray(rest, chunk.subarray(i), ctx, files, limit);
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
  files: AnswerFiles,
  options: CallOptions = {},
): Promise<CallToFile> {
  const request = callRequest(name, params, options.signal);
  const answer = await route.run((r, afterMissing) =>
    http.stream({ ...request(r, afterMissing), callAnswer: true }, (stream, info, _commit, ctx) => consume(stream, info.contentType, ctx, files, http.answerLimit), {
      value: false,
    }),
  );
  return answer;
}
