// The agents' operations without a server: the manifest's tools equal the definitions, inputs are
// checked field by field, tables are summarised, the MCP server's redaction.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redact } from '../../src/agents/mcp/server';
import { capAnswer, DEFINITIONS, MAX_ANSWER_CHARS, OPERATIONS } from '../../src/agents/operations';
import { errorMessage, SIGN_IN } from '../../src/agents/operations/errors';
import { inputObject, integer, optionalText, text, texts } from '../../src/agents/operations/inputs';
import { summarizeCsv } from '../../src/agents/operations/summary';
import { DatagrokError } from '../../src/api/errors';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));

describe('agents: operations', () => {
  it('package.json contributes exactly the operations, with the same descriptions and schemas', () => {
    const tools = manifest.contributes.languageModelTools as { name: string; modelDescription: string; inputSchema: object; toolReferenceName: string }[];
    assert.deepEqual(
      tools.map((t) => [t.name, t.modelDescription, t.inputSchema]),
      DEFINITIONS.map((d) => [d.name, d.description, d.inputSchema]),
    );
    assert.ok(tools.every((t) => /^[A-Za-z]+$/.test(t.toolReferenceName)));
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: 'datagrok.mcpServers', label: 'Datagrok' }]);
  });

  it('every write has a confirmation and every read has none; schemas are closed objects', () => {
    assert.equal(OPERATIONS.length, 13);
    for (const op of OPERATIONS) {
      assert.equal(op.confirm === undefined, op.readOnly, op.name);
      assert.equal(op.inputSchema.additionalProperties, false, op.name);
      for (const required of op.inputSchema.required ?? []) assert.ok(required in op.inputSchema.properties, `${op.name}: ${required}`);
    }
    assert.deepEqual(
      OPERATIONS.filter((o) => !o.readOnly).map((o) => o.name),
      ['datagrok_runFunction', 'datagrok_pushTable', 'datagrok_writeFile', 'datagrok_createDashboard', 'datagrok_shareDashboard', 'datagrok_resolveRequest'],
    );
  });

  it('checks inputs field by field', () => {
    assert.deepEqual(inputObject(undefined), {});
    assert.throws(() => inputObject([1]), /must be a JSON object/);
    assert.equal(text({ a: ' x ' }, 'a'), 'x');
    assert.throws(() => text({ a: '' }, 'a'), /"a" is required: a non-empty string/);
    assert.equal(optionalText({ a: '  ' }, 'a'), undefined);
    assert.throws(() => optionalText({ a: 3 }, 'a'), /"a" must be a string/);
    assert.equal(integer({}, 'n', 7, 1, 9), 7);
    assert.throws(() => integer({ n: 1.5 }, 'n', 7, 1, 9), /whole number from 1 to 9/);
    assert.deepEqual(texts({ t: [' a', 'b '] }, 't'), ['a', 'b']);
    assert.throws(() => texts({ t: [] }, 't'), /non-empty array/);
  });

  it('summarises a table: row count, columns, the first rows; a cut text drops its partial last row', () => {
    assert.deepEqual(summarizeCsv('a,b\n1,2\n3,4\n5,6\n', 2), { rows: 3, columns: ['a', 'b'], firstRows: 'a,b\n1,2\n3,4' });
    assert.deepEqual(summarizeCsv('a,b\n1,2\n3,4\n5,', 5, true), { rows: 2, columns: ['a', 'b'], firstRows: 'a,b\n1,2\n3,4', truncated: true });
    assert.deepEqual(summarizeCsv('', 5), { rows: 0, columns: [], firstRows: '' });
  });

  it('cuts an overlong answer and says so', () => {
    assert.equal(capAnswer('short'), 'short');
    const cut = capAnswer('x'.repeat(MAX_ANSWER_CHARS + 5));
    assert.ok(cut.startsWith('x'.repeat(MAX_ANSWER_CHARS)));
    assert.match(cut, /cut: the answer has 100,005 characters/);
  });

  it('says how to sign in, and the MCP server never lets the key out', () => {
    assert.equal(errorMessage(new DatagrokError('unauthorized', 'You are not signed in to x. Run "Datagrok: Sign In"')), SIGN_IN);
    assert.match(errorMessage(new DatagrokError('unauthorized', 'Listing groups failed: the API key was rejected (401).')), /rejected/);
    assert.equal(redact('a secret-key-123 b secret-key-123', 'secret-key-123'), 'a *** b ***');
    assert.equal(redact('text', undefined), 'text');
  });
});
