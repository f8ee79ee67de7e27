import * as assert from 'node:assert/strict';
import { inputsSummary, resultFolderName } from '../../src/functions/resultLabels';

describe('result labels (breadcrumbs, Runs tooltip)', () => {
  it('names the function and its inputs, in order, strings quoted', () => {
    assert.equal(resultFolderName('Demo:Add', { a: 2, b: 3 }), 'Demo:Add(a: 2, b: 3)');
    assert.equal(inputsSummary({ table: 'demog', n: null }), 'table: "demog", n: null');
    assert.equal(resultFolderName('Demo:Now', {}), 'Demo:Now()');
    assert.equal(inputsSummary({}), 'no inputs');
  });

  it('never splits the URI path: a "/" in a value becomes a division slash', () => {
    const folder = resultFolderName('Demo:ColumnStats', { column: 'demog/age' });
    assert.equal(folder, 'Demo:ColumnStats(column: "demog∕age")');
    assert.ok(!folder.includes('/'));
  });

  it('caps long values and long lists', () => {
    const summary = inputsSummary({ text: 'x'.repeat(100), rows: [1, 2, 3] }, 80);
    assert.match(summary, /^text: "x{22}…, rows: \[1,2,3\]$/);
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i]));
    const capped = inputsSummary(many, 40);
    assert.equal(capped.length, 40);
    assert.ok(capped.endsWith('…'));
  });
});
