// The data view's source in plain Node: type inference, the row-offset index (quoted fields with
// newlines), picking fields out of rows, sort and filter through the source over a real file, summaries.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inferType } from '../../src/platform/dataView/columnTypes';
import { CsvDataSource } from '../../src/platform/dataView/dataSource';
import { scanFields } from '../../src/platform/dataView/fieldScanner';
import { orderByNumbers, orderByText } from '../../src/platform/dataView/order';
import { RowIndex, STRIDE } from '../../src/platform/dataView/rowIndex';
import { ColumnStore } from '../../src/platform/dataView/columnStore';
import { histogram, summarize } from '../../src/platform/dataView/summaries';

let dir: string;
function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

describe('Data view: column types', () => {
  it('infers int, double, bool, datetime and string, ignoring missing values', () => {
    assert.equal(inferType(['1', '-2', '', '30']), 'int');
    assert.equal(inferType(['1', '2.5', '1e3', 'NaN']), 'double');
    assert.equal(inferType(['true', 'FALSE', '']), 'bool');
    assert.equal(inferType(['2024-01-02', '2024-02-03T10:11:12Z', '']), 'datetime');
    assert.equal(inferType(['1', 'two']), 'string');
    assert.equal(inferType(['', '']), 'string');
    assert.equal(inferType(['12345678901234567890']), 'double', 'beyond 2^53 an integer is a double');
    assert.equal(inferType(['2024-13-45']), 'string', 'not a real date');
  });
});

describe('Data view: the row index', () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-dataview-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('counts rows, not newlines inside quoted fields, and finds every row', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? `${i},"line one\nline ""two"", end"` : `${i},plain`));
    const p = file('quoted.csv', `id,text\n${rows.join('\r\n')}`);
    const index = new RowIndex(p, fs.statSync(p).size);
    await index.build();
    assert.equal(index.rows, 300, 'the last row has no newline and still counts');
    const source = await CsvDataSource.open(p);
    await source.indexed;
    const got = await source.rows(STRIDE * 2 - 3, 10);
    assert.deepEqual(
      got.map((r) => r[0]),
      Array.from({ length: 10 }, (_, i) => String(STRIDE * 2 - 3 + i)),
    );
    assert.equal((await source.rows(0, 1))[0][1], 'line one\nline "two", end');
    assert.deepEqual(source.rowCount(), { rows: 300, exact: true });
    await source.close();
  });

  it('reads a file with only a header as no rows', async () => {
    const header = await CsvDataSource.open(file('header.csv', 'a,b\n'));
    assert.deepEqual(
      header.columns.map((c) => c.name),
      ['a', 'b'],
    );
    assert.deepEqual(header.rowCount(), { rows: 0, exact: true });
    assert.deepEqual(await header.rows(0, 10), []);
    await header.close();
  });
});

describe('Data view: fields, sort, filter and summaries', () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-dataview-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('picks the wanted fields, quoted or not, and short rows as empty', () => {
    const seen: [number, number, string][] = [];
    const rows = scanFields(Buffer.from('a,"x\n,y",3\r\n1,,"q""r"\nonly\n'), [1, 2], 10, (r, w, v) => seen.push([r, w, v]));
    assert.equal(rows, 3);
    assert.deepEqual(seen, [
      [0, 0, 'x\n,y'],
      [0, 1, '3'],
      [1, 0, ''],
      [1, 1, 'q"r'],
      [2, 0, ''],
      [2, 1, ''],
    ]);
  });

  it('orders numbers (missing last, ties in file order) and text by code units', () => {
    assert.deepEqual([...orderByNumbers(new Float64Array([3, Number.NaN, -1, 3, 0, -0.5, 1e10]))], [2, 5, 4, 0, 3, 6, 1]);
    assert.deepEqual([...orderByNumbers(new Float64Array([3, Number.NaN, -1, 3]), true)], [0, 3, 2, 1]);
    assert.deepEqual([...orderByText(['b', undefined, 'a', 'B', 'b'])], [3, 2, 0, 4, 1]);
  });

  it('sorts and filters what the source serves', async () => {
    const lines = ['name,age,city'];
    for (let i = 0; i < 1000; i++) lines.push(`p${i},${(i * 37) % 101},${['Lima', 'Oslo', 'Rome'][i % 3]}`);
    const source = await CsvDataSource.open(file('people.csv', `${lines.join('\n')}\n`));
    await source.indexed;
    assert.deepEqual(
      source.columns.map((c) => c.type),
      ['string', 'int', 'string'],
    );
    await source.sort({ column: 1, descending: true });
    const top = await source.rows(0, 1000);
    const ages = top.map((r) => Number(r[1]));
    assert.deepEqual(
      ages,
      [...ages].sort((a, b) => b - a),
    );
    const count = await source.filter([
      { column: 2, kind: 'values', values: ['Oslo'] },
      { column: 1, kind: 'range', min: 10, max: 20 },
    ]);
    const served = await source.rows(0, 1000);
    assert.equal(count.rows, served.length);
    assert.ok(served.length > 0 && served.every((r) => r[2] === 'Oslo' && Number(r[1]) >= 10 && Number(r[1]) <= 20));
    assert.deepEqual(
      served.map((r) => Number(r[1])),
      served.map((r) => Number(r[1])).sort((a, b) => b - a),
      'still sorted',
    );
    await source.filter([{ column: 0, kind: 'text', text: 'P99' }]);
    assert.deepEqual((await source.rows(0, 100)).map((r) => r[0]).sort(), ['p99', 'p990', 'p991', 'p992', 'p993', 'p994', 'p995', 'p996', 'p997', 'p998', 'p999']);
    await source.filter([]);
    await source.sort(undefined);
    assert.equal((await source.rows(5, 1))[0][0], 'p5', 'back to file order');
    const summary = await source.summary(2);
    assert.equal(summary.count, 1000);
    assert.deepEqual(
      summary.top.map((t) => t.value),
      ['Lima', 'Oslo', 'Rome'],
    );
    await source.close();
  });

  it('summarizes and charts the rows the filters keep, and says which rows', async () => {
    const lines = ['name,age,city'];
    for (let i = 0; i < 3000; i++) lines.push(`p${i},${i % 100},${['Lima', 'Oslo', 'Rome'][i % 3]}`);
    const source = await CsvDataSource.open(file('filtered.csv', `${lines.join('\n')}\n`));
    await source.stored;
    const all = await source.summary(1);
    assert.deepEqual([all.count, all.min, all.max, all.scope], [3000, 0, 99, { rows: 3000, of: 3000, filtered: false }]);
    await source.sort({ column: 1, descending: true });
    const kept = await source.filter([{ column: 1, kind: 'range', min: 50, max: 59 }]);
    assert.equal(kept.rows, 300);
    const age = await source.summary(1);
    assert.deepEqual([age.count, age.min, age.max, age.mean, age.scope], [300, 50, 59, 54.5, { rows: 300, of: 3000, filtered: true }]);
    const histogram = await source.distribution(1);
    assert.equal(
      histogram.y.reduce((a, b) => a + b, 0),
      300,
    );
    assert.deepEqual(histogram.scope, { rows: 300, of: 3000, filtered: true });
    assert.equal((histogram.x as number[])[0], 50, 'bins over the kept range');
    const city = await source.summary(2);
    assert.deepEqual(
      city.top.map((t) => t.count),
      [100, 100, 100],
    );
    const scatter = await source.scatter(1, 1);
    assert.equal(scatter.x.length, 300);
    assert.ok((scatter.x as number[]).every((v) => v >= 50 && v <= 59));
    await source.filter([]);
    assert.deepEqual((await source.summary(1)).scope, { rows: 3000, of: 3000, filtered: false }, 'all rows again once the filter is removed');
    await source.close();
  });

  it('summarizes numbers and text (exact distinct for text, approximate above 65,536 numbers)', () => {
    const numbers = new ColumnStore(['double']);
    numbers.add(Buffer.from('1\n2\n\nNA\n4.5\n'), 5);
    const n = summarize('x', 'double', numbers.columns[0]!, { rows: 5 });
    assert.deepEqual([n.count, n.missing, n.distinct, n.min, n.max, n.mean], [3, 2, 3, 1, 4.5, 2.5]);
    const many = new ColumnStore(['int']);
    many.add(Buffer.from(Array.from({ length: 72_000 }, (_, i) => `${i % 70_000}\n`).join('')), 72_000);
    const m = summarize('m', 'int', many.columns[0]!, { rows: 72_000 });
    assert.equal(m.distinctApproximate, true);
    assert.ok(Math.abs(m.distinct - 70_000) / 70_000 < 0.05, `≈ 70,000 distinct: ${m.distinct}`);
    const text = new ColumnStore(['string']);
    text.add(Buffer.from(Array.from({ length: 72_000 }, (_, i) => `v${i % 70_000}\n`).join('')), 72_000);
    const t = summarize('t', 'string', text.columns[0]!, { rows: 72_000 });
    assert.deepEqual([t.distinct, t.distinctApproximate, t.count, t.missing], [70_000, false, 72_000, 0]);
    assert.deepEqual(t.top.slice(0, 2), [
      { value: 'v0', count: 2 },
      { value: 'v1', count: 2 },
    ]);
    const values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const h = histogram({ get: (id) => values[id] }, { rows: values.length }, 0, 10, 5);
    assert.deepEqual(h.counts, [2, 2, 2, 2, 3]);
    assert.equal(h.edges[0], 0);
  });
});
