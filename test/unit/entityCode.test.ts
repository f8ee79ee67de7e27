// A bundle entity's code read out of its JSON file and written back as that one string: the rest of the file
// byte for byte as it was (grok's two-space JSON, other formatting, keys in any order, no final newline), the
// code's escapes exactly JSON's, and a save over a code changed on disk refused.
import * as assert from 'node:assert/strict';
import { CodeChangedOnDisk, entityCode, withCode, withStringField } from '../../src/platform/bundles/entityCode';

const SCRIPT = JSON.stringify(
  {
    '#type': 'Script',
    description: 'A greeting',
    id: '5c000000-0000-4000-8000-000000000001',
    language: 'python',
    name: 'Greet',
    script: '#name: Greet\n#language: python\n#input: string who\nprint(f"Hello, {who}!\\t")\n',
    tags: ['demo'],
  },
  null,
  2,
);

/** The text outside the first `"key": "…"` value, to compare what a write left alone. */
function around(text: string, key: string): [string, string] {
  const start = text.indexOf(`"${key}": "`) + key.length + 4;
  let end = start + 1;
  while (text[end] !== '"' || text[end - 1] === '\\') end++;
  return [text.slice(0, start), text.slice(end + 1)];
}

describe('bundle entity code (a script\'s "script", a query\'s "query")', () => {
  it('reads the code of a script in its language, and of a query as SQL', () => {
    assert.deepEqual(entityCode(SCRIPT, '/b/Script/Scripts.Greet.json'), {
      type: 'Script',
      key: 'script',
      ext: 'py',
      code: '#name: Greet\n#language: python\n#input: string who\nprint(f"Hello, {who}!\\t")\n',
    });
    const query = '{\n  "#type": "DataQuery",\n  "name": "TopCustomers",\n  "query": "--name: TopCustomers\\nselect 1"\n}';
    assert.deepEqual(entityCode(query, 'DataQuery/Samples.TopCustomers.json'), { type: 'DataQuery', key: 'query', ext: 'sql', code: '--name: TopCustomers\nselect 1' });
    assert.equal(entityCode('{"language": "r", "script": "#name: X"}', 'b/Script/X.json').ext, 'R', 'no #type: the folder grok files it under');
  });

  it('refuses, with the reason, a file that is not a script or query, not JSON, or whose code is not text', () => {
    assert.throws(() => entityCode('{"#type": "Project", "name": "P"}', 'Project/P.json'), /P\.json is a Project, not a script or a query: it has no code to open/);
    assert.throws(() => entityCode('{"#type": "Script", "script": ', 'Script/S.json'), /S\.json is not valid JSON \(\w+ on line 1\)/);
    assert.throws(() => entityCode('{"#type": "Script", "script": 42}', 'Script/S.json'), /its "script" is not text/);
    assert.equal(entityCode('{"#type": "DataQuery"}', 'DataQuery/Q.json').code, '', 'a query without a "query" yet: empty code');
    assert.throws(() => entityCode('{"formatVersion": 1, "order": []}', '/home/me/bundle/manifest.json'), /manifest\.json is no bundle entity, not a script or a query/);
  });

  it('writes only the code string: every other byte of the file stays as it was', () => {
    const code = 'x = "quoted" \\ back\\slash\n\ttab, üñí, emoji 🙂, </script>\r\nend';
    const next = withStringField(SCRIPT, 'script', code);
    assert.deepEqual(around(next, 'script'), around(SCRIPT, 'script'));
    assert.equal(JSON.parse(next).script, code);
    assert.ok(next.includes(JSON.stringify(code)), 'escaped as JSON.stringify escapes it (as grok writes it)');
    // Other formatting (tabs, keys after the code, a final newline, CRLF) is not touched either.
    const odd = '{\r\n\t"script":"a",\r\n\t"name" :  "S"  ,"z":[1,2]\r\n}\r\n';
    assert.equal(withStringField(odd, 'script', 'b\nc'), '{\r\n\t"script":"b\\nc",\r\n\t"name" :  "S"  ,"z":[1,2]\r\n}\r\n');
  });

  it('adds the key, indented as the file is, when the entity has none', () => {
    const text = '{\n  "#type": "DataQuery",\n  "name": "Q"\n}';
    assert.equal(withStringField(text, 'query', 'select 1'), '{\n  "#type": "DataQuery",\n  "name": "Q",\n  "query": "select 1"\n}');
  });

  it('saves over the code it started from, keeping changes on disk to the other keys', () => {
    const base = entityCode(SCRIPT, 'Script/S.json').code;
    const edited = SCRIPT.replace('"A greeting"', '"A greeting, reviewed"');
    const saved = withCode(edited, 'Script/S.json', base, 'print(1)\n');
    assert.equal(JSON.parse(saved).script, 'print(1)\n');
    assert.equal(JSON.parse(saved).description, 'A greeting, reviewed', 'the outside change to another key is kept');
    assert.equal(withCode(SCRIPT, 'Script/S.json', base, base), SCRIPT, 'nothing changed: the same bytes');
  });

  it('refuses a save when the code on disk is no longer what the editor started from', () => {
    const base = entityCode(SCRIPT, 'Script/S.json').code;
    const changed = withStringField(SCRIPT, 'script', `${base}# changed by a colleague\n`);
    assert.throws(
      () => withCode(changed, '/b/Script/S.json', base, 'print(1)\n'),
      (e: Error) =>
        e instanceof CodeChangedOnDisk && /S\.json changed on disk since its code was opened here: saving would overwrite that change, so nothing was saved/.test(e.message),
    );
  });
});
