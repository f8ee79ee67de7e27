import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countCsvRows } from '../../src/platform/tables/csvRows';

describe('countCsvRows (the exact row count after a sampled push)', () => {
  let dir = '';
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csvrows-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const count = (text: string) => {
    const file = path.join(dir, `t${Math.random().toString(36).slice(2)}.csv`);
    fs.writeFileSync(file, text);
    return countCsvRows(file);
  };

  it('counts data rows, the header excluded, with or without a final line break, LF or CRLF', async () => {
    assert.equal(await count('a,b\n1,2\n3,4\n'), 2);
    assert.equal(await count('a,b\n1,2\n3,4'), 2);
    assert.equal(await count('a,b\r\n1,2\r\n3,4\r\n'), 2);
    assert.equal(await count('a,b\n'), 0);
    assert.equal(await count(''), 0);
  });

  it('keeps a line break inside a quoted field (and escaped quotes) in its row; blank lines are no rows', async () => {
    assert.equal(await count('name,note\nx,"two\nlines"\ny,"say ""hi""\r\nagain"\n\n\r\nz,3\n'), 3);
  });

  it('counts across read chunks (a file larger than one 1 MiB chunk)', async () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => `${i},"v\n${i}"`).join('\n');
    assert.equal(await count(`id,v\n${rows}\n`), 150_000);
  });
});
