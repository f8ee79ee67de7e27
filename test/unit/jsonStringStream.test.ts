// The streamed JSON string decoder (a table's CSV answered as one JSON string, written as it arrives): the
// bytes it gives are the string's UTF-8, whatever the chunks (escapes, \u escapes and surrogate pairs split
// anywhere); what follows the closing quote is noticed. (What push returns is valid until the next push: copied.)
import * as assert from 'node:assert/strict';
import { JsonStringDecoder } from '../../src/api/jsonStringStream';

function decode(json: string, size: number): { text: string; done: boolean; trailing: boolean } {
  const bytes = Buffer.from(json, 'utf8');
  const decoder = new JsonStringDecoder();
  const out: Buffer[] = [];
  for (let i = bytes.indexOf(0x22) + 1; i < bytes.length; i += size) out.push(Buffer.from(decoder.push(bytes.subarray(i, Math.min(bytes.length, i + size)))));
  return { text: Buffer.concat(out).toString('utf8'), done: decoder.done, trailing: decoder.trailing };
}

/** Every character outside printable ASCII as a \u escape (surrogate pairs as two). */
const escapedAll = (json: string) => json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('JSON string decoder (streamed answers)', () => {
  it('gives the UTF-8 of the string, in chunks of any size', () => {
    for (const value of ['a,b\n1,"x""y"\n', 'π ✓ \u0000 \t \\ / 😀 𝄞 end', 'e\u00e9\ud83d\ude00', '']) {
      for (const json of [JSON.stringify(value), escapedAll(JSON.stringify(value)), JSON.stringify(value).replace(/\//g, '\\/')]) {
        for (const size of [1, 2, 3, 5, 7, 64]) {
          assert.deepEqual(decode(json, size), { text: value, done: true, trailing: false }, `${json} in chunks of ${size}`);
        }
      }
    }
  });

  it('notices text after the closing quote (white space is fine), and a string that never ends', () => {
    assert.equal(decode('"a" x', 1).trailing, true);
    assert.equal(decode('"a"  \n', 2).trailing, false);
    assert.equal(decode('"abc', 2).done, false);
    assert.throws(() => new JsonStringDecoder().push(Buffer.from('a\\qb"')), /Bad escape/);
  });
});
