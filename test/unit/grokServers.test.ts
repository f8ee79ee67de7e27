// The grok CLI's servers as the extension offers them: ~/.grok/config.yaml read (the default first), an
// alias that cannot be signed in to from here set apart with the reason; a missing file has none.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { grokConfigPath, grokServersOf, readGrokServers } from '../../src/platform/grokConfig';

describe('grok servers: the aliases of ~/.grok/config.yaml', () => {
  const config = [
    '# mine',
    'default: dev',
    'servers:',
    '  public:',
    '    url: https://public.datagrok.ai/api',
    '    key: p-key',
    '  dev:',
    '    url: https://dev.example/api/',
    '    key: d-key',
    '    login: me',
    '  pair:',
    '    url: https://pair.example/api',
    '    keyFile: ~/.grok/keys/pair.json',
    '  site:',
    '    url: https://site.example',
    '    key: s-key',
    '  bare:',
    '    url: https://bare.example/api',
    '',
  ].join('\n');

  it('reads each alias with its URL (normalized) and key, the default first; says why one cannot be used', () => {
    const servers = grokServersOf(config);
    assert.deepEqual(
      servers.map((s) => [s.alias, s.url, s.key, s.isDefault, s.problem]),
      [
        ['dev', 'https://dev.example/api', 'd-key', true, undefined],
        ['bare', 'https://bare.example/api', undefined, false, 'grok keeps no key for it'],
        ['pair', 'https://pair.example/api', undefined, false, 'grok signs in to it with a key pair (keyFile), which the extension cannot use: sign in with your API key'],
        ['public', 'https://public.datagrok.ai/api', 'p-key', false, undefined],
        ['site', undefined, 's-key', false, 'its url is not a server URL ending in /api'],
      ],
    );
    assert.deepEqual(grokServersOf('default: x\n'), []);
    assert.throws(() => grokServersOf('servers: [\n'), /not valid YAML/);
  });

  it("reads grok's own file under HOME; a missing file has no servers, a broken one says so without its content", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'grok-home-'));
    const file = grokConfigPath(home);
    assert.equal(file, path.join(home, '.grok', 'config.yaml'));
    assert.deepEqual(await readGrokServers(file), { file, servers: [] });
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, config);
    assert.deepEqual(
      (await readGrokServers(file)).servers.filter((s) => !s.problem).map((s) => s.alias),
      ['dev', 'public'],
    );
    fs.writeFileSync(file, 'servers:\n  a: {url: x, key: secret-key\n');
    const broken = await readGrokServers(file);
    assert.deepEqual(broken.servers, []);
    assert.match(broken.problem ?? '', /could not be read: it is not valid YAML/);
    assert.doesNotMatch(broken.problem ?? '', /secret-key/);
    fs.rmSync(home, { recursive: true });
  });
});
