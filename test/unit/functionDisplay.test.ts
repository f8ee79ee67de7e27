import * as assert from 'node:assert/strict';
import type { FuncInfo } from '../../src/api/types';
import { escapeMarkdown, kindIcon, parameterFileName, shortDescription, signatureMarkdown } from '../../src/functions/functionDisplay';

const round: FuncInfo = {
  id: 'f1',
  name: 'Round',
  nqName: 'Math:Round',
  package: 'Math',
  kind: 'function',
  description: 'Rounds a number',
  tags: [],
  params: [
    { name: 'value', propertyType: 'double', isInput: true, description: 'The number' },
    { name: 'mode', propertyType: 'string', isInput: true, defaultValue: 'half', nullable: true, choices: ['half', 'floor'], description: 'How *to*\n round' },
    { name: 'rounded', propertyType: 'double', isInput: false, description: 'Result' },
  ],
};

describe('Functions view display', () => {
  it('picks an icon per kind', () => {
    assert.equal(kindIcon('function'), 'symbol-function');
    assert.equal(kindIcon('script'), 'file-code');
    assert.equal(kindIcon('query'), 'database');
  });

  it('shortens descriptions to their first line', () => {
    assert.equal(shortDescription(undefined), undefined);
    assert.equal(shortDescription('  \n'), undefined);
    assert.equal(shortDescription('First line\nsecond'), 'First line');
    assert.equal(shortDescription('abcdefghij', 5), 'abcd…');
  });

  it('writes the signature as Markdown: inputs with types, defaults, choices and descriptions, then outputs', () => {
    const md = signatureMarkdown(round);
    assert.match(md, /^\*\*Math:Round\*\* · function\n\nRounds a number\n\n`Math:Round\(value: double, mode: string = "half"\) → rounded: double`/);
    assert.match(md, /\*\*Inputs\*\*\n\n- `value`: double — The number\n- `mode`: string = `"half"` _\(optional\)_, one of `"half"`, `"floor"` — How \\\*to\\\* round/);
    assert.match(md, /\*\*Outputs\*\*\n\n- `rounded`: double — Result$/);
  });

  it('says when the server did not describe the parameters, and when there are no inputs', () => {
    assert.match(signatureMarkdown({ ...round, params: undefined }), /did not describe its parameters/);
    assert.match(signatureMarkdown({ ...round, kind: 'script', language: 'python', params: [] }), /· python script[\s\S]*_No inputs\._/);
  });

  it('escapes Markdown in names and descriptions', () => {
    assert.equal(escapeMarkdown('a_b [c](d) <x>'), 'a\\_b \\[c\\]\\(d\\) \\<x\\>');
  });

  it('names the parameter file after the function, safe for any file system', () => {
    assert.equal(parameterFileName(round), 'Round.datagrok.json');
    assert.equal(parameterFileName({ name: 'a/b:c?', nqName: 'P:a/b:c?' }), 'a_b_c_.datagrok.json');
    assert.equal(parameterFileName({ name: '..hidden', nqName: 'P:..hidden' }), '_hidden.datagrok.json');
    assert.equal(parameterFileName({ name: '', nqName: 'P:Fallback' }), 'Fallback.datagrok.json');
  });
});
