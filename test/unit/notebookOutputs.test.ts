// A notebook's table outputs, the pure parts: what the output item carries (shape, typed columns, the first
// screen of rows within its budget, whatever the table's size), the row count read without parsing, and the
// output files (one folder per extension host; a gone host's folder swept, a live one's kept).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OutputFiles } from '../../src/platform/notebook/outputFiles';
import { countCsvFileRows, countCsvRows, fileStart, HEAD_BUDGET, HEAD_ROWS, tableHead } from '../../src/platform/notebook/tableHead';
import { csvShape } from '../../src/platform/functions/outputs';

describe('notebook table outputs', () => {
  it('counts rows as the CSV parser does: quoted line breaks, CRLF, empty lines, a missing last newline (text, and a file in chunks)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-rows-'));
    try {
      for (const text of ['a,b\n1,2\n3,4\n', 'a,b\r\n1,2\r\n\r\n3,4', 'a,b\n"x\ny",2\n"q""",3\n\n', 'a\n', 'a', '', 'a,b\n1,2\n\n\n3,"4\r\n5"\r\n']) {
        assert.equal(countCsvRows(text), csvShape(text).rows, JSON.stringify(text));
        const file = path.join(dir, 'rows.csv');
        fs.writeFileSync(file, text);
        assert.equal(await countCsvFileRows(file), csvShape(text).rows, `file ${JSON.stringify(text)}`);
      }
      // Past one read (1 MiB): quotes in one chunk, none in the next.
      const big = `a,b\n"x\ny",1\n${'1,2\n'.repeat(400_000)}\n"p\nq",3\n`;
      fs.writeFileSync(path.join(dir, 'big.csv'), big);
      assert.equal(await countCsvFileRows(path.join(dir, 'big.csv')), 400_002);
      const start = await fileStart(path.join(dir, 'big.csv'));
      assert.equal(start.whole, false);
      assert.deepEqual(tableHead(start.text, { rows: 400_002, whole: false }).first.slice(0, 2), [
        ['x\ny', '1'],
        ['1', '2'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('carries the columns typed and the first screen of rows, whatever the rows after it', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `${i},${i / 4},name ${i},2024-01-${String((i % 28) + 1).padStart(2, '0')}`);
    const head = tableHead(`id,x,name,day\n${rows.join('\n')}\n`);
    assert.equal(head.rows, 50_000);
    assert.deepEqual(
      head.columns.map((c) => `${c.name}:${c.type}`),
      ['id:int', 'x:double', 'name:string', 'day:datetime'],
    );
    assert.equal(head.first.length, HEAD_ROWS);
    assert.deepEqual(head.first[199], ['199', '49.75', 'name 199', '2024-01-04']);
  });

  it('leaves the first rows out when they would pass the budget (wide text), the shape still there', () => {
    const wide = 'x'.repeat(500);
    const head = tableHead(`a,b\n${Array.from({ length: 1000 }, (_, i) => `${i},${wide}`).join('\n')}`);
    assert.equal(head.first.length, 0);
    assert.ok(JSON.stringify(head).length < HEAD_BUDGET);
    assert.equal(head.rows, 1000);
    assert.deepEqual(
      head.columns.map((c) => c.type),
      ['int', 'string'],
    );
  });

  it('writes each output to its own file in a folder of this process; sweeps only the folders of gone processes', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-outputs-'));
    try {
      fs.mkdirSync(path.join(root, '999999999-deadbeef'));
      fs.writeFileSync(path.join(root, '999999999-deadbeef', 'x.csv'), 'a\n1\n');
      fs.mkdirSync(path.join(root, `${process.ppid}-cafecafe`));
      const files = new OutputFiles(root);
      const { id, file } = await files.write('a,b\n1,2\n');
      assert.equal(fs.readFileSync(file, 'utf8'), 'a,b\n1,2\n');
      assert.equal(path.dirname(file), files.dir);
      assert.equal(files.file(id), file);
      assert.throws(() => files.file('../../etc/passwd'), /Not a notebook output id/);
      assert.deepEqual(await files.sweep(), ['999999999-deadbeef']);
      assert.deepEqual(fs.readdirSync(root).sort(), [`${process.ppid}-cafecafe`, path.basename(files.dir)].sort());
      await files.remove(id);
      assert.equal(fs.existsSync(file), false);
      files.dispose();
      assert.equal(fs.existsSync(files.dir), false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
