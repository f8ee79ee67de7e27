// The data view's columns in memory (columnStore.ts) and the operations on them (columnOps.ts): values
// read from the bytes equal what Number / Date.parse make of the text; ints widen to doubles; text codes
// widen past 65,536 values; a column over the memory budget is dropped, and the source still sorts,
// filters and summarizes it by reading it again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyFilter, sortOrder } from '../../src/platform/dataView/columnOps';
import { ColumnStore, type NumberColumn, type TextColumn } from '../../src/platform/dataView/columnStore';
import { CsvDataSource } from '../../src/platform/dataView/dataSource';

function store(types: ConstructorParameters<typeof ColumnStore>[0], lines: string[], budget?: number): ColumnStore {
  const s = new ColumnStore(types, budget);
  s.add(Buffer.from(`${lines.join('\n')}\n`), lines.length);
  return s;
}

describe('Data view: columns in memory', () => {
  it('reads numbers, dates and bools from the bytes as Number and Date.parse read the text', () => {
    const texts = ['0', '-0', '12.5', '-3.25', '+7', '0.1', '123456789012345', '1234567890123456789', '1e3', '-2.5E-2', '.5', ' 4 ', 'NaN', 'x', ''];
    const s = store(['double'], texts);
    const col = s.columns[0] as NumberColumn;
    for (const [id, text] of texts.entries()) {
      const expected = ['NaN', 'x', ''].includes(text) ? Number.NaN : Number(text);
      assert.ok(Object.is(col.get(id), expected) || (col.get(id) === expected && expected !== 0), `${JSON.stringify(text)}: ${col.get(id)} vs ${expected}`);
    }
    let seed = 7;
    const random = Array.from({ length: 5000 }, () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return ((seed / 4294967296) * 2000 - 1000).toFixed((seed >>> 3) % 9);
    });
    const r = store(['double'], random).columns[0] as NumberColumn;
    for (const [id, text] of random.entries()) assert.equal(r.get(id), Number(text), text);
    const dates = ['2024-01-05', '2024-02-29', '2024-12-31T10:20:30Z', '2024-03-01 08:00', ''];
    const d = store(['datetime'], dates).columns[0] as NumberColumn;
    for (const [id, text] of dates.entries()) assert.ok(Object.is(d.get(id), text ? Date.parse(text) : Number.NaN), text);
    const b = store(['bool'], ['true', 'FALSE', 'True', '', 'false']).columns[0] as NumberColumn;
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((id) => b.get(id)),
      [1, 0, 1, Number.NaN, 0],
    );
  });

  it('keeps ints in 32 bits until a value does not fit, then widens to doubles', () => {
    const s = store(['int', 'int'], ['1,5', '2,', '3,4000000000', '-4,2.5']);
    const a = s.columns[0] as NumberColumn;
    const b = s.columns[1] as NumberColumn;
    assert.equal(a.width, 'i32');
    assert.equal(b.width, 'f64');
    assert.deepEqual(
      [0, 1, 2, 3].map((id) => a.get(id)),
      [1, 2, 3, -4],
    );
    assert.deepEqual(
      [0, 1, 2, 3].map((id) => b.get(id)),
      [5, Number.NaN, 4_000_000_000, 2.5],
    );
  });

  it('codes text by a dictionary (missing words as missing, quotes undone), widening past 65,536 values', () => {
    const s = store(['string'], ['b', '"a ""q"""', 'NA', '', 'b', '"x,\ny"']);
    const t = s.columns[0] as TextColumn;
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((id) => t.dictionary[t.get(id)]),
      ['b', 'a "q"', '', '', 'b', 'x,\ny'],
    );
    assert.deepEqual([...sortOrder(t, 6)], [1, 0, 4, 5, 2, 3]);
    const mask = new Uint8Array(6).fill(1);
    applyFilter(mask, t, 'string', { column: 0, kind: 'text', text: 'Q' }, 6);
    assert.deepEqual([...mask], [0, 1, 0, 0, 0, 0]);
    const wide = store(
      ['string'],
      Array.from({ length: 70_000 }, (_, i) => `w${i}`),
    );
    const w = wide.columns[0] as TextColumn;
    assert.equal(w.chunks[0] instanceof Uint32Array, true);
    assert.equal(w.dictionary[w.get(69_999)], 'w69999');
    assert.equal(w.dictionary[w.get(3)], 'w3');
  });

  it('drops a column over the memory budget; the source reads it again to sort and summarize it', async () => {
    const s = store(['int', 'double'], ['1,2', '3,4'], 70_000 * 4 + 100);
    assert.ok(s.columns[0], 'the first column fits');
    assert.equal(s.columns[1], undefined, 'the second does not');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-dataview-cols-'));
    try {
      const file = path.join(dir, 'budget.csv');
      const lines = ['k,v'];
      for (let i = 0; i < 200_000; i++) lines.push(`${i},${(i * 7919) % 1000}`);
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const source = await CsvDataSource.open(file, undefined, { budget: 200_000 * 4 + 1000 });
      await source.stored;
      assert.equal(source.store.columns[1], undefined, 'v is dropped');
      await source.sort({ column: 1, descending: true });
      assert.deepEqual(
        (await source.rows(0, 2)).map((r) => r[1]),
        ['999', '999'],
      );
      const summary = await source.summary(1);
      assert.deepEqual([summary.count, summary.min, summary.max, summary.distinct], [200_000, 0, 999, 1000]);
      assert.deepEqual(await source.filter([{ column: 1, kind: 'range', min: 998 }]), { rows: 400, exact: true });
      await source.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Data view: a file still being written', () => {
  it('serves the rows that have arrived, counts "at least", and reads the rest as it comes until complete', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-dataview-grow-'));
    try {
      const file = path.join(dir, 'growing.csv');
      const line = (i: number) => `${i},name ${i},${i % 7}`;
      fs.writeFileSync(file, `id,name,g\n${Array.from({ length: 1500 }, (_, i) => line(i)).join('\n')}\n`);
      let whole: (error?: Error) => void = () => undefined;
      const completion = new Promise<Error | undefined>((resolve) => {
        whole = resolve;
      });
      const source = await CsvDataSource.open(file, undefined, { growing: true, completion });
      assert.deepEqual(
        source.columns.map((c) => c.type),
        ['int', 'string', 'int'],
      );
      assert.deepEqual((await source.rows(1499, 1))[0], ['1499', 'name 1499', String(1499 % 7)]);
      assert.deepEqual(source.rowCount(), { rows: 1500, exact: false });
      // More rows arrive, the last one without its newline yet: it is not counted until the file is whole.
      fs.appendFileSync(file, `${Array.from({ length: 100_000 }, (_, i) => line(1500 + i)).join('\n')}\n${line(101_500)}`);
      source.grew();
      const later = source.rows(101_499, 1);
      assert.deepEqual((await later)[0][0], '101499');
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(source.rowCount(), { rows: 101_500, exact: false });
      whole();
      await source.indexed;
      assert.deepEqual(source.rowCount(), { rows: 101_501, exact: true });
      await source.sort({ column: 0, descending: true });
      assert.equal((await source.rows(0, 1))[0][0], '101500', 'sorts every row once the file is whole');
      await source.close();

      // A download that stops: reading fails with its reason.
      fs.writeFileSync(file, `id\n${Array.from({ length: 1200 }, (_, i) => i).join('\n')}\n`);
      let stop: (error?: Error) => void = () => undefined;
      const stopped = new Promise<Error | undefined>((resolve) => {
        stop = resolve;
      });
      const failing = await CsvDataSource.open(file, undefined, { growing: true, completion: stopped });
      stop(new Error('The download stopped: reset'));
      await assert.rejects(failing.indexed, /The download stopped: reset/);
      await assert.rejects(failing.sort({ column: 0 }), /The download stopped/);
      await failing.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
