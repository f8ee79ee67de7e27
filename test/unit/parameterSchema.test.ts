import * as assert from 'node:assert/strict';
import { parameterSchema } from '../../src/platform/functions/parameterSchema';
import { describeFunc } from './funcFixture';

describe('parameter file schema (from a signature)', () => {
  const func = describeFunc(
    [
      { name: 'table', propertyType: 'dataframe', isInput: true, description: 'The data' },
      { name: 'column', propertyType: 'column', isInput: true },
      { name: 'bins', propertyType: 'int', isInput: true, defaultValue: 10 },
      { name: 'ratio', propertyType: 'double', isInput: true, nullable: true },
      { name: 'method', propertyType: 'string', isInput: true, choices: ['mean', 'median'], defaultValue: 'mean' },
      { name: 'since', propertyType: 'datetime', isInput: true, nullable: true },
      { name: 'flags', propertyType: 'list', isInput: true, nullable: true },
      { name: 'strict', propertyType: 'bool', isInput: true, defaultValue: false },
      { name: 'result', propertyType: 'dataframe', isInput: false },
    ],
    { description: 'Describes a column' },
  );
  const schema = parameterSchema(func) as { properties: Record<string, Record<string, unknown>>; required: string[]; [k: string]: unknown };

  it('names the function, allows comments, refuses unknown inputs and lists the required ones', () => {
    assert.equal(schema.title, 'Stats:Describe');
    assert.equal(schema.description, 'Describes a column');
    assert.equal(schema.additionalProperties, false);
    assert.equal(schema.allowComments, true);
    assert.deepEqual(schema.properties.$function, { const: 'Stats:Describe', description: 'The function to call; never sent to the server.' });
    assert.deepEqual(schema.required, ['table', 'column']);
    assert.ok(!('result' in schema.properties), 'outputs are not inputs');
  });

  it('gives each input its JSON type, choices, default and description', () => {
    const p = schema.properties;
    assert.deepEqual(p.bins, { type: 'integer', default: 10, description: 'int' });
    assert.deepEqual(p.ratio, { type: ['number', 'null'], description: 'double' });
    assert.deepEqual(p.method, { type: 'string', enum: ['mean', 'median'], default: 'mean', description: 'string' });
    assert.deepEqual(p.since, { type: ['string', 'null'], format: 'date-time', description: 'datetime' });
    assert.deepEqual(p.flags, { type: ['array', 'null'], description: 'list' });
    assert.deepEqual(p.strict, { type: 'boolean', default: false, description: 'bool' });
    assert.equal(p.column.pattern, '^.+/[^/]+$');
    assert.equal(p.table.description, 'dataframe, required: The data');
    const [name, csv] = p.table.anyOf as Record<string, unknown>[];
    assert.equal(name.type, 'string');
    assert.deepEqual(csv.required, ['$csv']);
  });
});
