// What is typed into Pull to Bundle's pick: qualified names or ids separated by spaces, a name with spaces in
// quotes (the pick's own example), an unclosed quote refused with where it starts.
import * as assert from 'node:assert/strict';
import { parseNames } from '../../src/platform/bundles/pickable';

describe('bundle pull: typed names', () => {
  it('splits on spaces; a quoted name keeps its spaces, in double or single quotes', () => {
    assert.deepEqual(parseNames('"World overview" Samples:TopCustomers'), ['World overview', 'Samples:TopCustomers']);
    assert.deepEqual(parseNames("Samples:TopCustomers  'World overview'"), ['Samples:TopCustomers', 'World overview']);
    assert.deepEqual(parseNames('  f1000000-0000-4000-8000-000000000025\tScripts:Greet \n'), ['f1000000-0000-4000-8000-000000000025', 'Scripts:Greet']);
  });

  it('without quotes a name with spaces is two names (the server is then asked for each)', () => {
    assert.deepEqual(parseNames('Samples:TopCustomers World overview'), ['Samples:TopCustomers', 'World', 'overview']);
  });

  it('a quote inside a name stays part of it; empty quotes are nothing; nothing typed is no name', () => {
    assert.deepEqual(parseNames(`O'Brien's "" x`), [`O'Brien's`, 'x']);
    assert.deepEqual(parseNames('   '), []);
  });

  it('an unclosed quote is refused, saying where', () => {
    assert.throws(() => parseNames('Samples:TopCustomers "World overview'), /The quote before World overview is not closed/);
  });
});
