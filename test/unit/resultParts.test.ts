import * as assert from 'node:assert/strict';
import { resultView } from '../../src/functions/resultParts';

describe('result documents (resultView)', () => {
  it('a scalar: one JSON document "<Function> — result" and the value as summary', () => {
    const view = resultView('Demo:Add', 5);
    assert.deepEqual(view.parts, [{ name: 'Demo:Add — result', language: 'json', text: '5\n' }]);
    assert.equal(view.summary, '5');
  });

  it('a dataframe: one CSV document "<Function> — result.csv", described in the summary', () => {
    const csv = 'a,b\n1,2\n3,4\n';
    const view = resultView('Demo:Filter', csv);
    assert.deepEqual(view.parts, [{ name: 'Demo:Filter — result.csv', language: 'csv', text: csv }]);
    assert.equal(view.summary, 'dataframe: 2 rows × 2 columns');
  });

  it('several outputs: the JSON document describes the dataframes, each dataframe its own CSV', () => {
    const view = resultView('Demo:Mixed', [1, 'x,y\n1,2\n', 'x\n1\n2\n']);
    assert.deepEqual(
      view.parts.map((p) => p.name),
      ['Demo:Mixed — result', 'Demo:Mixed — result.csv', 'Demo:Mixed — result 2.csv'],
    );
    assert.deepEqual(JSON.parse(view.parts[0].text), { 'output 1': 1, 'output 2': '<dataframe: 1 row × 2 columns>', 'output 3': '<dataframe: 2 rows × 1 column>' });
    assert.match(view.summary, /^3 outputs: \[1,"<dataframe: 1 row × 2 columns>"/);
  });

  it('no value is null in the document; long summaries are cut short', () => {
    assert.equal(resultView('Demo:Nothing', undefined).parts[0].text, 'null\n');
    assert.equal(resultView('Demo:Nothing', undefined).summary, 'no value');
    const long = resultView('Demo:Long', 'z'.repeat(500));
    assert.equal(long.summary.length, 200);
    assert.ok(long.summary.endsWith('…'));
  });
});
