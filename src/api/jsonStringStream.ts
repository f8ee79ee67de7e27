// A JSON string value decoded as its bytes arrive: a function's dataframe output is answered as one JSON
// string holding the CSV, and a large one is written to a file a chunk at a time rather than held whole
// (once as the answer's bytes, once more as the parsed string). UTF-8 passes through as is; escapes
// (\n, \", \uXXXX with surrogate pairs) are decoded, also when split across chunks.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** The byte each one-letter escape stands for: \" \\ \/ \b \f \n \r \t. */
const SIMPLE = new Map([...'"\\/bfnrt'].map((c, i) => [c.charCodeAt(0), [0x22, 0x5c, 0x2f, 0x08, 0x0c, 0x0a, 0x0d, 0x09][i]]));

export class JsonStringDecoder {
  /** Past the closing quote. */
  done = false;
  /** An escape begun at the end of the last chunk (its bytes so far, from the backslash). */
  private pending: number[] = [];
  /** A high surrogate waiting for its low half. */
  private high: number | undefined;
  /** Whatever followed the closing quote other than white space (not one string then). */
  trailing = false;

  /** Decodes a chunk of the string's body (after its opening quote); returns the bytes of the value it holds. */
  push(chunk: Uint8Array): Buffer {
    const out: Buffer[] = [];
    let i = 0;
    if (this.done) {
      this.checkTrailing(chunk, 0);
      return Buffer.alloc(0);
    }
    if (this.pending.length > 0) {
      while (i < chunk.length && !this.escapeComplete()) this.pending.push(chunk[i++]);
      if (!this.escapeComplete()) return Buffer.alloc(0);
      out.push(this.decodeEscape());
    }
    let run = i;
    while (i < chunk.length) {
      const b = chunk[i];
      if (b !== QUOTE && b !== BACKSLASH) {
        i++;
        continue;
      }
      if (i > run) out.push(this.plain(chunk.subarray(run, i)));
      if (b === QUOTE) {
        this.done = true;
        this.flushHigh(out);
        this.checkTrailing(chunk, i + 1);
        return Buffer.concat(out);
      }
      // An escape: \x or \uXXXX.
      const need = i + 1 < chunk.length && chunk[i + 1] === 0x75 ? 6 : 2;
      if (i + need > chunk.length) {
        this.pending = [...chunk.subarray(i)];
        return Buffer.concat(out);
      }
      this.pending = [...chunk.subarray(i, i + need)];
      out.push(this.decodeEscape());
      i += need;
      run = i;
    }
    if (i > run) out.push(this.plain(chunk.subarray(run, i)));
    return out.length === 1 ? out[0] : Buffer.concat(out);
  }

  private plain(bytes: Uint8Array): Buffer {
    if (this.high === undefined) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out: Buffer[] = [];
    this.flushHigh(out);
    out.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return Buffer.concat(out);
  }

  private escapeComplete(): boolean {
    return this.pending.length >= (this.pending[1] === 0x75 ? 6 : 2);
  }

  private decodeEscape(): Buffer {
    const [, kind, ...hex] = this.pending;
    this.pending = [];
    if (kind !== 0x75) {
      const byte = SIMPLE.get(kind);
      if (byte === undefined) throw new SyntaxError(`Bad escape \\${String.fromCharCode(kind)} in a JSON string`);
      const out: Buffer[] = [];
      this.flushHigh(out);
      out.push(Buffer.from([byte]));
      return Buffer.concat(out);
    }
    const code = Number.parseInt(String.fromCharCode(...hex), 16);
    if (!/^[0-9a-fA-F]{4}$/.test(String.fromCharCode(...hex))) throw new SyntaxError('Bad \\u escape in a JSON string');
    const out: Buffer[] = [];
    if (code >= 0xd800 && code <= 0xdbff) {
      this.flushHigh(out);
      this.high = code;
    } else if (code >= 0xdc00 && code <= 0xdfff && this.high !== undefined) {
      out.push(Buffer.from(String.fromCharCode(this.high, code), 'utf8'));
      this.high = undefined;
    } else {
      this.flushHigh(out);
      out.push(Buffer.from(String.fromCharCode(code), 'utf8'));
    }
    return Buffer.concat(out);
  }

  /** A lone high surrogate: written as JSON.parse then TextEncoder would (U+FFFD). */
  private flushHigh(out: Buffer[]): void {
    if (this.high === undefined) return;
    out.push(Buffer.from(String.fromCharCode(this.high), 'utf8'));
    this.high = undefined;
  }

  private checkTrailing(chunk: Uint8Array, from: number): void {
    for (let j = from; j < chunk.length; j++) {
      const b = chunk[j];
      if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) this.trailing = true;
    }
  }
}
