// The connection for the user's own programs, as text: the grok config merged (the rest of the file kept),
// the .env file, the Python snippet without a key; and the confinement check on real paths and symlinks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { confine } from '../../src/platform/confinement';
import { envFileText, ENV_FILE_MARK, pythonSnippet } from '../../src/terminals/credentials';
import { aliasFor, checkAlias, withServer } from '../../src/platform/grokConfig';

describe('Terminals and grok: the connection as text for other programs', () => {
  it('adds a server alias to a grok config, keeping the rest of the file (comments, other servers, the default)', () => {
    const existing =
      '# my servers\ndefault: dev\nservers:\n  dev:\n    url: https://dev.example/api\n    key: dev-key # keep\n  old:\n    url: https://old.example/api\n    keyFile: ~/.old\n    login: me\nextra: 1\n';
    const text = withServer(existing, 'public', 'https://public.datagrok.ai/api', 'k-1', false);
    assert.match(text, /^# my servers\n/);
    assert.match(text, /key: dev-key # keep/);
    const config = parse(text);
    assert.equal(config.default, 'dev');
    assert.equal(config.extra, 1);
    assert.deepEqual(config.servers.public, { url: 'https://public.datagrok.ai/api', key: 'k-1' });
    assert.deepEqual(config.servers.dev, { url: 'https://dev.example/api', key: 'dev-key' });
    const updated = parse(withServer(text, 'old', 'https://new.example/api', 'k-2', true));
    assert.deepEqual(updated.servers.old, { url: 'https://new.example/api', key: 'k-2', login: 'me' }, 'its login kept, the keyFile that would win gone');
    assert.equal(updated.default, 'old');
  });

  it('starts a grok config from nothing and refuses one that is not a mapping', () => {
    assert.deepEqual(parse(withServer(undefined, 'a', 'https://x/api', 'k', false)), { servers: { a: { url: 'https://x/api', key: 'k' } }, default: 'a' });
    assert.deepEqual(parse(withServer('servers:\n', 'a', 'https://x/api', 'k', false)).servers, { a: { url: 'https://x/api', key: 'k' } });
    assert.throws(() => withServer('- a\n- b\n', 'a', 'u', 'k', false), /not a YAML mapping/);
    assert.throws(() => withServer('servers: [1]\n', 'a', 'u', 'k', false), /"servers" in the grok config is not a mapping/);
    assert.throws(() => withServer('a: [\n', 'a', 'u', 'k', false), /not valid YAML/);
    assert.throws(() => checkAlias('a b'), /not valid/);
    assert.equal(aliasFor('https://public.datagrok.ai/api'), 'public.datagrok.ai');
  });

  it('writes the .env with its mark and escapes; the Python snippet holds no key', () => {
    assert.equal(envFileText('https://x/api', 'a"b\\c'), `${ENV_FILE_MARK}\nDATAGROK_API_URL="https://x/api"\nDATAGROK_API_KEY="a\\"b\\\\c"\n`);
    const snippet = pythonSnippet();
    assert.match(snippet, /os\.environ\["DATAGROK_API_URL"\]/);
    assert.match(snippet, /os\.environ\["DATAGROK_API_KEY"\]/);
  });

  it('confines paths to the roots as written and with symlinks resolved', async () => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-confine-'));
    try {
      const ws = path.join(top, 'ws');
      fs.mkdirSync(ws);
      fs.writeFileSync(path.join(top, 'secret'), 'x');
      fs.writeFileSync(path.join(ws, 'a.csv'), 'x');
      fs.symlinkSync(path.join(top, 'secret'), path.join(ws, 'link'));
      fs.symlinkSync(path.join(ws, 'a.csv'), path.join(ws, 'inner'));
      assert.equal(await confine('a.csv', [ws]), fs.realpathSync(path.join(ws, 'a.csv')));
      assert.equal(await confine('inner', [ws]), fs.realpathSync(path.join(ws, 'a.csv')), 'a link that stays inside is followed');
      assert.equal(await confine('missing.csv', [ws]), path.join(ws, 'missing.csv'));
      await assert.rejects(confine('../secret', [ws]), /outside the workspace\. Only files inside ".*ws" can be read/);
      await assert.rejects(confine(path.join(top, 'secret'), [ws]), /outside the workspace/);
      await assert.rejects(confine('link', [ws]), /outside the workspace/);
      await assert.rejects(confine('../ws2/x', [ws]), /outside the workspace/, 'a sibling sharing the prefix is outside');
      await assert.rejects(confine('a.csv', []), /no workspace folder was given/);
    } finally {
      fs.rmSync(top, { recursive: true, force: true });
    }
  });
});
