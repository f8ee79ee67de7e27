import * as assert from 'node:assert/strict';
import { isTemporaryName, temporaryName } from '../../src/platform/scripts/entities';

describe('Temporary script names (▶ Run on Datagrok)', () => {
  it('are the header name made safe, a mark and 8 hex letters, told apart from saved names', () => {
    const name = temporaryName('Cell count-2');
    assert.match(name, /^Cell_count_2_vscode_run_[0-9a-f]{8}$/);
    assert.ok(isTemporaryName(name));
    assert.notEqual(temporaryName('Cell count-2'), name, 'each run gets its own name');
    for (const saved of ['CellCount', 'my_vscode_run', 'x_vscode_run_12', 'x_vscode_run_zzzzzzzz']) assert.ok(!isTemporaryName(saved), saved);
  });
});
