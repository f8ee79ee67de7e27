// The streamed JSON array reader (the answer of a function with several outputs): each string element in a
// file of its own holding exactly the string, every other element parsed, whatever the chunks; an answer that
// is not one JSON array is refused with the reason, and what is held for the other elements is bounded.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type ArrayElement, JsonArrayReader } from '../../src/api/jsonArrayStream';

let dir = '';

async function read(json: string, size: number, limit = 1 << 20): Promise<unknown[]> {
  let n = 0;
  const reader = new JsonArrayReader(
    async () => path.join(dir, `${n++}.txt`),
    limit,
    (why) => new Error(`malformed: ${why}`),
    () => new Error('too large'),
  );
  const bytes = Buffer.from(json, 'utf8');
  try {
    for (let i = 0; i < bytes.length; i += size) await reader.push(bytes.subarray(i, Math.min(bytes.length, i + size)));
  } finally {
    await reader.abort();
  }
  if (!reader.done) throw new Error('malformed: not closed');
  return reader.elements.map((e: ArrayElement) => ('file' in e ? { text: fs.readFileSync(e.file, 'utf8'), bytes: e.bytes } : e.value));
}

describe('JSON array reader (streamed answers of several outputs)', () => {
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-array-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes each string to its own file and parses the rest, in chunks of any size', async () => {
    const values = ['a,b\n1,"x""y"\n', 3, { x: [1, ']', '"}'] }, null, 'π 😀 \\ /', true, -1.5e3, [], '', [['['], {}]];
    const expected = values.map((v) => (typeof v === 'string' ? { text: v, bytes: Buffer.byteLength(v) } : v));
    for (const json of [JSON.stringify(values), ` [ ${values.map((v) => JSON.stringify(v, null, 1)).join(' ,\n ')} ] \n`]) {
      for (const size of [1, 2, 3, 7, 64, 4096]) assert.deepEqual(await read(json, size), expected, `${json} in chunks of ${size}`);
    }
    assert.deepEqual(await read('[]', 1), []);
    assert.deepEqual(await read(' [ ] ', 2), []);
  });

  it('refuses what is not one JSON array, saying why', async () => {
    const cases: [string, RegExp][] = [
      ['{"a":1}', /does not start with "\["/],
      ['[1,,2]', /a "," where a value belongs/],
      ['[1 2]', /a "2" after a value/],
      ['[1] x', /follows its closing "\]"/],
      ['["a"', /not closed/],
      ['["abc', /not closed/],
      ['[tru]', /not JSON \(tru\)/],
      ['[1,]', /a "]" where a value belongs/],
    ];
    for (const [json, why] of cases) await assert.rejects(read(json, 1), why, json);
  });

  it('holds the elements that are not strings within the limit; strings are not held', async () => {
    const big = 'x'.repeat(10_000);
    assert.deepEqual(await read(JSON.stringify([big, 1]), 100, 50), [{ text: big, bytes: 10_000 }, 1]);
    await assert.rejects(read(JSON.stringify([{ big }]), 100, 50), /too large/);
  });
});
