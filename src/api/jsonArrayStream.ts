// A JSON array answer read element by element as its bytes arrive: a function with several outputs answers
// an array of their values, a dataframe's as one JSON string holding its CSV. Each string element is decoded
// into a file of its own a chunk at a time (never held whole); any other element (a number, an object, null)
// is held and parsed, all of them together within the answer limit.
import * as fs from 'node:fs';
import { JsonStringDecoder } from './jsonStringStream';

/** One element of the array: a string written to a file (its bytes), or the value of any other element. */
export type ArrayElement = { file: string; bytes: number } | { value: unknown };

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

export class JsonArrayReader {
  readonly elements: ArrayElement[] = [];
  /** open: before '['; value: a value or (first) ']'; string/other: inside one; after: ',' or ']'; closed: past ']'. */
  private state: 'open' | 'first' | 'value' | 'string' | 'other' | 'after' | 'closed' = 'open';
  private decoder: JsonStringDecoder | undefined;
  private out: { file: string; handle: fs.promises.FileHandle; bytes: number } | undefined;
  /** The element being held (not a string), its nesting depth, and whether the scan is inside one of its strings. */
  private held: Buffer[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  private heldBytes = 0;

  /**
   * @param nextFile where the next string element goes (a new file's path)
   * @param limit the most bytes held for the elements that are not strings
   * @param malformed the error for an answer that is not a JSON array; tooLarge, for one past the limit
   */
  constructor(
    private readonly nextFile: () => Promise<string>,
    private readonly limit: number,
    private readonly malformed: (why: string) => Error,
    private readonly tooLarge: () => Error,
  ) {}

  get done(): boolean {
    return this.state === 'closed';
  }

  async push(chunk: Buffer): Promise<void> {
    let i = 0;
    while (i < chunk.length) {
      const b = chunk[i];
      switch (this.state) {
        case 'string': {
          const decoder = this.decoder as JsonStringDecoder;
          await this.write(decoder.push(i === 0 ? chunk : chunk.subarray(i)));
          if (!decoder.done) return;
          i += decoder.end;
          await this.endString();
          continue;
        }
        case 'other':
          i = this.scan(chunk, i);
          continue;
        case 'open':
          if (b === 0x5b) this.state = 'first';
          else if (!isSpace(b)) throw this.malformed('it does not start with "["');
          break;
        case 'first':
        case 'value':
          if (isSpace(b)) break;
          if (b === 0x5d && this.state === 'first') this.state = 'closed';
          else if (b === QUOTE) await this.startString();
          else if (b === COMMA || CLOSE.has(b)) throw this.malformed(`a "${String.fromCharCode(b)}" where a value belongs`);
          else {
            // The scan of a value that is not a string starts at its first byte.
            this.startOther();
            continue;
          }
          break;
        case 'after':
          if (b === COMMA) this.state = 'value';
          else if (b === 0x5d) this.state = 'closed';
          else if (!isSpace(b)) throw this.malformed(`a "${String.fromCharCode(b)}" after a value`);
          break;
        case 'closed':
          if (!isSpace(b)) throw this.malformed('something follows its closing "]"');
          break;
      }
      i++;
    }
  }

  /** Closes a file still being written (a failed or cut answer); the caller removes the files. */
  async abort(): Promise<void> {
    await this.out?.handle.close();
    this.out = undefined;
  }

  private async startString(): Promise<void> {
    const file = await this.nextFile();
    this.out = { file, handle: await fs.promises.open(file, 'w'), bytes: 0 };
    this.decoder = new JsonStringDecoder();
    this.state = 'string';
  }

  private async write(bytes: Buffer): Promise<void> {
    if (bytes.length === 0 || !this.out) return;
    await this.out.handle.write(bytes);
    this.out.bytes += bytes.length;
  }

  private async endString(): Promise<void> {
    const out = this.out as NonNullable<typeof this.out>;
    await out.handle.close();
    this.out = undefined;
    this.decoder = undefined;
    this.elements.push({ file: out.file, bytes: out.bytes });
    this.state = 'after';
  }

  private startOther(): void {
    this.state = 'other';
    this.held = [];
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /** Scans a value that is not a string from `from`; returns where the scan stopped (past the value when it ended). */
  private scan(chunk: Buffer, from: number): number {
    let i = from;
    let ended = false;
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) this.inString = false;
        continue;
      }
      if (b === QUOTE) this.inString = true;
      else if (OPEN.has(b)) this.depth++;
      else if (CLOSE.has(b) && this.depth > 0) {
        this.depth--;
        if (this.depth === 0) {
          i++;
          ended = true;
          break;
        }
      } else if (this.depth === 0 && (b === COMMA || CLOSE.has(b) || isSpace(b))) {
        ended = true;
        break;
      }
    }
    this.hold(chunk.subarray(from, i));
    if (ended) this.endOther();
    return i;
  }

  private hold(bytes: Buffer): void {
    this.heldBytes += bytes.length;
    if (this.heldBytes > this.limit) throw this.tooLarge();
    this.held.push(Buffer.from(bytes));
  }

  private endOther(): void {
    const text = Buffer.concat(this.held).toString('utf8');
    this.held = [];
    try {
      this.elements.push({ value: JSON.parse(text) });
    } catch {
      throw this.malformed(`an element is not JSON (${text.slice(0, 40)})`);
    }
    this.state = 'after';
  }
}
