// Contract: the grok CLI (`grok s …`, npm package datagrok-tools) against the emulator: the dev-key login
// first, then `Authorization: <token>` on every call.
import * as assert from 'node:assert/strict';
import { type Call, grok, ID, type Json, useEmulator } from './clients';

describe('contract: the grok CLI (datagrok-tools)', () => {
  const emu = useEmulator();

  it('logs in with the developer key (both forms) and uses the token on every route', async () => {
    const e = emu();
    const cli = await grok(e); // POST /api/users/login/dev with Authorization: Dev <key>
    const current = await cli('GET', '/public/v1/users/current');
    assert.equal(current.status, 200, current.text);
    assert.equal(current.json().login, 'demo');
    // Older servers: the key in the path.
    const older = await fetch(`${e.baseUrl}/users/login/dev/${e.key}`, { method: 'POST' });
    assert.equal(older.status, 200);
    const { token } = (await older.json()) as { token: string };
    const groups = await fetch(`${e.baseUrl}/public/v1/groups/current`, { headers: { Authorization: token } });
    assert.equal(groups.status, 200);
    // A wrong key is no login; a made-up token is no key.
    assert.equal((await fetch(`${e.baseUrl}/users/login/dev`, { method: 'POST', headers: { Authorization: 'Dev nope' } })).status, 401);
    assert.equal((await fetch(`${e.baseUrl}/public/v1/groups`, { headers: { Authorization: 'not-a-session' } })).status, 401);
    assert.equal((await fetch(`${e.baseUrl}/tables`)).status, 401, 'the non-public lists need auth too');
  });

  it('answers the healthcheck', async () => {
    const cli = await grok(emu());
    const res = await cli('GET', '/public/v1/healthcheck');
    assert.equal(res.status, 200);
    assert.equal(res.json().status, 'ok');
  });

  it('groups get <name>: by name, the record carrying its members without include', async () => {
    const cli = await grok(emu());
    const res = await cli('GET', '/public/v1/groups/Chemists');
    assert.equal(res.status, 200, res.text);
    const g = res.json();
    assert.equal(g.id, ID.chemists);
    assert.deepEqual(g.children.map((r: Json) => r.child.name).sort(), ['alice', 'demo']);
    assert.ok(Array.isArray(g.parents));
    assert.equal((await cli('GET', '/public/v1/groups/No%20Such%20Group')).status, 404);
  });

  it('groups list pages through /api/groups?limit=&page= (page 1 is the first)', async () => {
    const cli = await grok(emu());
    const all = (await cli('GET', '/public/v1/groups')).json<Json[]>();
    const seen: string[] = [];
    for (let page = 1; page < 20; page++) {
      const res = await cli('GET', '/groups', { query: { limit: 5, page } });
      assert.equal(res.status, 200, res.text);
      const items = res.json<Json[]>();
      assert.ok(items.length <= 5);
      seen.push(...items.map((g) => g.id));
      if (items.length < 5) break;
    }
    assert.deepEqual(
      seen,
      all.map((g) => g.id),
    );
  });

  it('groups save / add-members / remove-members: "include an id to update", relations re-POSTed', async () => {
    const cli = await grok(emu());
    const id = '5f0c6a2e-7d1b-4c1e-9a61-2a9d1c0e5b01'; // a client-made id
    const created = await cli('POST', '/public/v1/groups', { query: { saveRelations: true }, json: { id, name: 'CLI Team', description: 'new' } });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.json().id, id);
    const rename = await cli('POST', '/public/v1/groups', { query: { saveRelations: false }, json: { id, name: 'CLI Team', description: 'updated' } });
    assert.equal(rename.json().description, 'updated');
    // add-members: the group with one more child relation
    const group = rename.json();
    const withBob = { ...group, children: [...group.children, { isAdmin: false, parent: { id }, child: { id: ID.bob } }] };
    const added = await cli('POST', '/public/v1/groups', { query: { saveRelations: true }, json: withBob });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(await memberNames(cli, id), ['bob', 'demo']);
    // remove-members: the same group without bob
    const withoutBob = { ...added.json(), children: added.json().children.filter((r: Json) => r.child.id !== ID.bob) };
    await cli('POST', '/public/v1/groups', { query: { saveRelations: true }, json: withoutBob });
    assert.deepEqual(await memberNames(cli, id), ['demo']);
  });

  it('groups delete: DELETE /public/v1/groups/{id}', async () => {
    const cli = await grok(emu());
    const created = (await cli('POST', '/public/v1/groups', { json: { name: 'Short-lived' } })).json();
    const res = await cli('DELETE', `/public/v1/groups/${created.id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal((await cli('GET', `/public/v1/groups/${created.id}`)).status, 404);
    assert.ok(!(await memberNames(cli, ID.demo, 'memberships')).includes('Short-lived'), 'its relations are gone too');
    assert.equal((await cli('DELETE', '/public/v1/groups/Biologists')).status, 403, 'only its admins may delete a group');
  });

  it('--admin / --no-admin send admin=true / admin=false: admin members only / non-admin members only', async () => {
    const cli = await grok(emu());
    const names = async (admin: boolean) => (await cli('GET', `/public/v1/groups/${ID.chemists}/members`, { query: { admin } })).json<Json[]>().map((g) => g.name);
    assert.deepEqual(await names(true), ['demo']);
    assert.deepEqual(await names(false), ['alice']);
  });

  it('shares add exits 1 only on status "failed" (nothing shared)', async () => {
    const cli = await grok(emu());
    const res = await cli('POST', `/public/v1/entities/${ID.demogTable}/shares`, { query: { groups: 'Ghosts', access: 'View' } });
    assert.equal(res.json().status, 'failed');
    const ok = await cli('POST', `/public/v1/entities/${ID.demogTable}/shares`, { query: { groups: 'Chemists,Ghosts', access: 'View' } });
    assert.equal(ok.json().status, 'partial_success');
  });

  it('tables download <name>: resolved through /api/tables?text=&limit=100 and /api/tables/{id}, then downloaded', async () => {
    const cli = await grok(emu());
    const found = (await cli('GET', '/tables', { query: { text: 'demog', limit: 100 } })).json<Json[]>();
    assert.deepEqual(
      found.map((t) => t.nqName),
      ['Demo:demog'],
    );
    const info = await cli('GET', `/tables/${found[0].id}`);
    assert.equal(info.json().name, 'demog');
    const csv = await cli('GET', `/public/v1/tables/${found[0].id}`, { contentType: 'text/plain' });
    assert.match(csv.text, /^USUBJID,AGE/);
    const uploaded = await cli('POST', '/public/v1/tables/Cli.upload', { body: 'x\n1\n', contentType: 'text/csv' });
    // The upload prints the full name, owner first (the CLI's docs: `Admin:MyTable:MyTable`) ...
    assert.equal(uploaded.json().name, 'demo:Cli:upload', 'printed as the full name');
    // ... which is what its lookup compares `namespace + name` of the listed tables with, and a download takes.
    const listed = (await cli('GET', '/tables', { query: { text: 'upload', limit: 100 } })).json<Json[]>();
    assert.deepEqual(
      listed.filter((t) => `${t.namespace}${t.name}` === 'demo:Cli:upload').map((t) => t.id),
      [uploaded.json().ID],
    );
    assert.equal((await cli('GET', '/public/v1/tables/demo.Cli.upload', { contentType: 'text/plain' })).text, 'x\n1\n');
  });

  it('functions run: positional arguments mapped onto the inputs of /public/v1/functions/{name}', async () => {
    const cli = await grok(emu());
    const fn = (await cli('GET', '/public/v1/functions/Demo.Add')).json();
    const inputs = fn.parameterInfos.filter((p: Json) => p.isInput).map((p: Json) => p.name);
    assert.deepEqual(inputs, ['a', 'b']);
    const args = [2, 40];
    const params = Object.fromEntries(inputs.map((name: string, i: number) => [name, args[i]]));
    const res = await cli('POST', '/public/v1/functions/Demo.Add/call', { json: params });
    assert.equal(res.json<number>(), 42);
  });

  it('connections list: the non-public /api/connectors/connections', async () => {
    const cli = await grok(emu());
    const res = await cli('GET', '/connectors/connections');
    assert.equal(res.status, 200, res.text);
    const names = res.json<Json[]>().map((c) => c.nqName);
    assert.ok(names.includes('System:DemoFiles') && names.length >= 5, names.join(', '));
    const page = (await cli('GET', '/connectors/connections', { query: { limit: 2, page: 2 } })).json<Json[]>();
    assert.deepEqual(
      page.map((c) => c.nqName),
      names.slice(2, 4),
    );
  });
});

async function memberNames(cli: Call, id: string, route = 'members'): Promise<string[]> {
  const res = await cli('GET', `/public/v1/groups/${id}/${route}`);
  assert.equal(res.status, 200, res.text);
  return res
    .json<Json[]>()
    .map((g) => g.name)
    .sort();
}
