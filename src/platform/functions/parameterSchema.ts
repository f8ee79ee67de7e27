// A JSON schema (draft-07) for one function's parameter files, generated from its signature: its inputs
// with their JSON types, choices as enums, required inputs (not nullable, no default), defaults and
// descriptions. Served as `datagrok-schema:/<Package:Name>.schema.json`. Pure.
import type { FuncInfo, FuncParam } from '../../api/types';
import { inputsOf, isRequired, outputsOf } from './signature';

type Schema = Record<string, unknown>;

const CSV_FILE: Schema = {
  type: 'object',
  required: ['$csv'],
  properties: {
    $csv: { type: 'string', description: 'A local CSV file (relative to the parameter file), pushed as a table first.' },
    name: { type: 'string', description: 'The table name; default: the file name.' },
  },
  additionalProperties: false,
};

/** The schema of one input's value. */
export function inputSchema(p: FuncParam): Schema {
  const facts: Schema = {};
  switch (p.propertyType.toLowerCase()) {
    case 'int':
    case 'bigint':
      facts.type = 'integer';
      break;
    case 'double':
    case 'num':
    case 'qnum':
      facts.type = 'number';
      break;
    case 'bool':
      facts.type = 'boolean';
      break;
    case 'string':
      facts.type = 'string';
      break;
    case 'dataframe':
      facts.anyOf = [{ type: 'string', description: 'A table ID or name (<project>.<table>).' }, CSV_FILE];
      break;
    case 'column':
      Object.assign(facts, { type: 'string', pattern: '^.+/[^/]+$', patternErrorMessage: 'A column input is "<table>/<column>".' });
      break;
    case 'column_list':
    case 'list':
      facts.type = 'array';
      break;
    case 'datetime':
      Object.assign(facts, { type: 'string', format: 'date-time' });
      break;
    case 'map':
    case 'object':
      facts.type = 'object';
      break;
    default:
      break;
  }
  if (p.nullable === true && typeof facts.type === 'string') facts.type = [facts.type, 'null'];
  if (p.choices && p.choices.length > 0) facts.enum = p.nullable === true ? [...p.choices, null] : [...p.choices];
  if (p.defaultValue !== undefined && p.defaultValue !== null) facts.default = p.defaultValue;
  const description = [`${p.propertyType}${isRequired(p) ? ', required' : ''}`, p.description?.trim()].filter(Boolean).join(': ');
  facts.description = description;
  return facts;
}

export function parameterSchema(func: FuncInfo): Schema {
  const inputs = inputsOf(func);
  const properties: Schema = {
    $function: { const: func.nqName, description: 'The function to call; never sent to the server.' },
    $schema: { type: 'string', description: 'This schema; never sent to the server.' },
    ...testProperties(func),
  };
  for (const p of inputs) properties[p.name] = inputSchema(p);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: func.nqName,
    ...(func.description ? { description: func.description } : {}),
    type: 'object',
    allowComments: true,
    allowTrailingCommas: true,
    properties,
    required: inputs.filter(isRequired).map((p) => p.name),
    additionalProperties: false,
  };
}

/** The keys that make a parameter file a test (never sent to the server). */
function testProperties(func: FuncInfo): Schema {
  const outputs =
    outputsOf(func)
      .map((o) => `${o.name}: ${o.propertyType}`)
      .join(', ') || 'none';
  return {
    $expect: { description: `A test: what the function must answer (outputs: ${outputs}); {"$error": "text"} when it must fail. Never sent to the server.` },
    $name: { type: 'string', description: "The test case's name." },
    $writes: { type: 'boolean', description: 'The function changes data: the test runs only when run on its own.' },
    $tolerance: { type: 'number', minimum: 0, description: 'How far a number may be from the expected one.' },
  };
}
