// A JSON string value decoded as its bytes arrive: a function's dataframe output is answered as one JSON
// string holding the CSV, and a large one is written to a file a chunk at a time rather than held whole
// (once as the answer's bytes, once more as the parsed string). UTF-8 passes through as is; escapes
// (\n, \", \uXXXX with surrogate pairs) are decoded, also when split across chunks. Runs between escapes
// are found natively (Buffer.indexOf) and copied into one buffer per chunk: about JSON.parse's speed.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const U = 0x75;
/** The byte each one-letter escape stands for (\" \\ \/ \b \f \n \r \t), by the letter's code; -1: not an escape. */
const SIMPLE = new Int16Array(128).fill(-1);
[...'"\\/bfnrt'].forEach((c, i) => {
  SIMPLE[c.charCodeAt(0)] = [0x22, 0x5c, 0x2f, 0x08, 0x0c, 0x0a, 0x0d, 0x09][i];
});

export class JsonStringDecoder {
  /** Past the closing quote. */
  done = false;
  /** Whatever followed the closing quote other than white space (not one string then). */
  trailing = false;
  /** Where in the chunk that held the closing quote the bytes after it begin (-1 until then). */
  end = -1;
  /** An escape begun at the end of the last chunk (its bytes so far, from the backslash). */
  private pending: number[] = [];
  /** A high surrogate waiting for its low half. */
  private high: number | undefined;
  private out = Buffer.alloc(0);
  private at = 0;

  /** Decodes a chunk of the string's body (after its opening quote); returns the bytes of the value it holds (valid until the next push). */
  push(piece: Uint8Array): Buffer {
    const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (this.done) {
      this.checkTrailing(chunk, 0);
      return Buffer.alloc(0);
    }
    // Decoded bytes are never more than the chunk's, plus an escape carried over and a lone surrogate.
    if (this.out.length < chunk.length + 16) this.out = Buffer.allocUnsafe(chunk.length + 16);
    this.at = 0;
    let i = 0;
    if (this.pending.length > 0) {
      while (i < chunk.length && !this.escapeComplete()) this.pending.push(chunk[i++]);
      if (!this.escapeComplete()) return this.out.subarray(0, 0);
      this.decodeEscape();
    }
    const out = this.out;
    let quote = chunk.indexOf(QUOTE, i);
    while (i < chunk.length) {
      // The next quote is looked for again only once passed (an escaped quote is consumed with its escape).
      if (quote >= 0 && quote < i) quote = chunk.indexOf(QUOTE, i);
      const slash = chunk.indexOf(BACKSLASH, i);
      const next = quote < 0 ? slash : slash < 0 ? quote : Math.min(quote, slash);
      const end = next < 0 ? chunk.length : next;
      if (end > i) {
        if (this.high !== undefined) this.flushHigh();
        this.at += chunk.copy(out, this.at, i, end);
      }
      if (next < 0) break;
      if (next === quote) {
        this.done = true;
        this.end = next + 1;
        this.flushHigh();
        this.checkTrailing(chunk, next + 1);
        break;
      }
      const letter = next + 1 < chunk.length ? chunk[next + 1] : -1;
      // The common escape (\n, \"…) whole in this chunk: written at once.
      const byte = letter >= 0 && letter < 128 ? SIMPLE[letter] : -1;
      if (byte >= 0) {
        if (this.high !== undefined) this.flushHigh();
        out[this.at++] = byte;
        i = next + 2;
        continue;
      }
      // \uXXXX, a bad escape, or an escape cut by the chunk's end.
      const need = letter === U ? 6 : 2;
      if (next + need > chunk.length) {
        this.pending = [...chunk.subarray(next)];
        break;
      }
      this.pending = [...chunk.subarray(next, next + need)];
      this.decodeEscape();
      i = next + need;
    }
    return this.out.subarray(0, this.at);
  }

  private escapeComplete(): boolean {
    return this.pending.length >= (this.pending[1] === U ? 6 : 2);
  }

  private decodeEscape(): void {
    const [, kind, ...hex] = this.pending;
    this.pending = [];
    if (kind !== U) {
      const byte = kind < 128 ? SIMPLE[kind] : -1;
      if (byte < 0) throw new SyntaxError(`Bad escape \\${String.fromCharCode(kind)} in a JSON string`);
      this.flushHigh();
      this.out[this.at++] = byte;
      return;
    }
    const digits = String.fromCharCode(...hex);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new SyntaxError('Bad \\u escape in a JSON string');
    const code = Number.parseInt(digits, 16);
    if (code >= 0xd800 && code <= 0xdbff) {
      this.flushHigh();
      this.high = code;
    } else if (code >= 0xdc00 && code <= 0xdfff && this.high !== undefined) {
      this.at += this.out.write(String.fromCharCode(this.high, code), this.at, 'utf8');
      this.high = undefined;
    } else {
      this.flushHigh();
      this.at += this.out.write(String.fromCharCode(code), this.at, 'utf8');
    }
  }

  /** A lone surrogate: written as JSON.parse then UTF-8 encoding would (U+FFFD). */
  private flushHigh(): void {
    if (this.high === undefined) return;
    this.at += this.out.write(String.fromCharCode(this.high), this.at, 'utf8');
    this.high = undefined;
  }

  private checkTrailing(chunk: Buffer, from: number): void {
    for (let j = from; j < chunk.length; j++) {
      const b = chunk[j];
      if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) this.trailing = true;
    }
  }
}
