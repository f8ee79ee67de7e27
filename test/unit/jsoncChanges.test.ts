// The smallest changes that set values in JSONC text: what Accept Actual and Turn Into Test apply to a
// test file, so that only "$expect" changes and one Undo reverts it.
import * as assert from 'node:assert/strict';
import { type TextChange, valueChanges } from '../../src/core/jsonc';

const apply = (text: string, changes: TextChange[]) => [...changes].reverse().reduce((t, c) => t.slice(0, c.offset) + c.content + t.slice(c.offset + c.length), text);

describe('JSONC value changes', () => {
  const single = '{\n  // fails: 2 + 2 is not 5\n  "$function": "Demo:Add",\n  "a": 2,\n  "b": 2,\n  "$expect": 5\n}\n';

  it('replaces only the value of an existing key', () => {
    const changes = valueChanges(single, [{ path: ['$expect'], value: 4 }]);
    assert.deepEqual(changes, [{ offset: single.indexOf('5\n}'), length: 1, content: '4' }]);
    assert.equal(apply(single, changes), single.replace('"$expect": 5', '"$expect": 4'));
  });

  it('adds a missing key after the last one, keeping the rest of the text and its comments', () => {
    const text = '{\n  // a plain file\n  "$function": "Demo:Upper",\n  "s": "abc"\n}\n';
    const changes = valueChanges(text, [{ path: ['$expect'], value: 'ABC' }]);
    assert.equal(changes.length, 1);
    assert.equal(changes[0].length, 0, 'nothing of the text is replaced, only inserted');
    assert.equal(apply(text, changes), '{\n  // a plain file\n  "$function": "Demo:Upper",\n  "s": "abc",\n  "$expect": "ABC"\n}\n');
  });

  it('changes several cases of an array file apart, each only where its value is', () => {
    const text = '[\n  { "$name": "four", "x": 4, "$expect": 3 },\n  // two\n  { "$name": "two", "x": 2, "$expect": 1.4 },\n  { "$name": "nine", "x": 9, "$expect": 1 }\n]\n';
    const changes = valueChanges(text, [
      { path: [2, '$expect'], value: 3 },
      { path: [0, '$expect'], value: 2 },
    ]);
    assert.deepEqual(
      changes.map((c) => c.content),
      ['2', '3'],
      'in the order of the text',
    );
    assert.ok(changes.every((c) => c.length === 1));
    assert.equal(apply(text, changes), text.replace('"$expect": 3 }', '"$expect": 2 }').replace('"$expect": 1 }', '"$expect": 3 }'));
  });

  it("writes an object value formatted with the file's indent, CRLF kept", () => {
    const text = '{\r\n    "$function": "Demo:Stats",\r\n    "$expect": 1\r\n}\r\n';
    const next = apply(text, valueChanges(text, [{ path: ['$expect'], value: { min: 1, max: 2 } }]));
    assert.equal(next, '{\r\n    "$function": "Demo:Stats",\r\n    "$expect": {\r\n        "min": 1,\r\n        "max": 2\r\n    }\r\n}\r\n');
  });

  it('changes nothing when the value is already there', () => {
    assert.deepEqual(valueChanges(single, [{ path: ['$expect'], value: 5 }]), []);
  });

  it('sets values that touch the same part of the text one after the other, as one change', () => {
    const text = '{ "a": 1 }';
    const changes = valueChanges(text, [
      { path: ['b'], value: 2 },
      { path: ['c'], value: 3 },
    ]);
    assert.equal(changes.length, 1);
    assert.deepEqual(JSON.parse(apply(text, changes)), { a: 1, b: 2, c: 3 });
  });
});
