import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDatagrokError } from '../../src/api/errors';
import { describeShape, inspectBytes, inspectFile, inspectText, SAMPLE_BYTES } from '../../src/platform/tables/csvSample';

function refused(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e: unknown) => isDatagrokError(e, 'badInput') && message.test(e.message) && /Nothing was uploaded/.test(e.message));
}

describe('CSV sampling', () => {
  it('counts rows and columns of text exactly, and the ragged rows', () => {
    const shape = inspectText('a,b,c\n1,2,3\n4,5\n6,7,8\n', '"t.csv"');
    assert.deepEqual(shape, { columns: 3, rows: 3, exact: true, bytes: 22, ragged: 1 });
    assert.equal(describeShape(shape), '3 rows × 3 columns');
    assert.equal(describeShape({ ...shape, rows: 1, columns: 1 }), '1 row × 1 column');
  });

  it('refuses empty, JSON, binary, unquoted and headerless input before any upload', () => {
    refused(() => inspectText(' \n ', '"e.csv"'), /"e\.csv" is empty/);
    refused(() => inspectText('{"a": 1}', '"j.csv"'), /looks like JSON/);
    refused(() => inspectText('a,b\n1,\u0000', '"b.csv"'), /binary data/);
    refused(() => inspectText('a,b\n"1,2\n', '"q.csv"'), /not valid CSV/);
    refused(() => inspectText('\uFEFF,\n1,2', '"h.csv"'), /no header row/);
  });

  it('estimates the row count of a large file from its first 64 KB, ignoring the cut-off last line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dg-unit-'));
    try {
      const line = 'alpha,beta,gamma\n';
      const rows = 100_000;
      const file = join(dir, 'big.csv');
      await writeFile(file, `x,y,z\n${line.repeat(rows)}`);
      const shape = await inspectFile(file, '"big.csv"');
      assert.equal(shape.exact, false);
      assert.equal(shape.columns, 3);
      assert.equal(shape.bytes, 6 + line.length * rows);
      assert.ok(Math.abs(shape.rows - rows) / rows < 0.01, `estimate ${shape.rows}`);
      assert.equal(shape.ragged, 0);
      assert.equal(describeShape(shape), `~${shape.rows.toLocaleString('en-US')} rows × 3 columns`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a sample that ends inside a multi-byte character is still read', () => {
    const text = `name\n${'é\n'.repeat(SAMPLE_BYTES)}`;
    const bytes = new TextEncoder().encode(text);
    const sample = bytes.subarray(0, SAMPLE_BYTES + 1);
    const shape = inspectBytes(sample, '"u.csv"', bytes.length);
    assert.equal(shape.exact, false);
    assert.equal(shape.columns, 1);
  });
});
