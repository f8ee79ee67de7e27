// Contract: the internal entity routes grok's `s pull | diff | push` use (base /api), as the CLI sends them
// (session token, `page` from 1), and saved scripts and queries callable as functions.
import * as assert from 'node:assert/strict';
import { grok, type Json, useEmulator } from './clients';

const ROUTES: Array<[string, string, string]> = [
  ['DataConnection', '/connectors/connections', 'Northwind'],
  ['Project', '/projects', 'World overview'],
  ['DataQuery', '/connectors/queries', 'TopCustomers'],
  ['Script', '/scripts', 'Greet'],
  ['TableInfo', '/tables', 'world_cities'],
  ['ViewLayout', '/layouts', 'World overview layout'],
];

describe('contract: the internal entity routes (grok s pull / diff / push)', () => {
  const emu = useEmulator();

  it('lists (paged from 1, text filter) and gets every seeded type by id, typed', async () => {
    const cli = await grok(emu());
    for (const [type, route, name] of ROUTES) {
      const all = (await cli('GET', route)).json<Json[]>();
      assert.ok(all.length > 0, `${route} lists the seeded ${type}s`);
      const found = (await cli('GET', route, { query: { text: name, limit: 50, page: 1 } })).json<Json[]>();
      const one = found.find((e) => e.name === name);
      assert.ok(one, `${route}?text=${name} finds it`);
      const got = await cli('GET', `${route}/${one.id}`);
      assert.equal(got.status, 200, got.text);
      assert.equal(got.json()['#type'], type);
      assert.equal(got.json().id, one.id);
      const page2 = (await cli('GET', route, { query: { limit: 1, page: 2 } })).json<Json[]>();
      assert.deepEqual(
        page2.map((e) => e.id),
        all.slice(1, 2).map((e) => e.id),
        `${route}: page 2 of 1 is the second row`,
      );
    }
    assert.equal((await cli('GET', '/views')).status, 200);
    assert.equal((await cli('GET', '/scripts/00000000-0000-4000-8000-0000000000ff')).json()['#type'], 'ApiError');
  });

  it('a query carries its connection; a connection its masked password; a project its relations', async () => {
    const cli = await grok(emu());
    const q = (await cli('GET', '/connectors/queries', { query: { text: 'TopCustomers' } })).json<Json[]>()[0];
    assert.equal(q.connection.nqName, 'Samples:Northwind');
    assert.match(q.query, /select/i);
    const c = (await cli('GET', `/connectors/connections/${q.connection.id}`)).json();
    assert.equal(c.parameters.password, '_____________');
    const rel = (await cli('GET', '/projects/relations', { query: { projectId: 'b1000000-0000-4000-8000-000000000001', include: 'entity', limit: 500, page: 1 } })).json<Json[]>();
    assert.deepEqual(rel.map((r) => r.entity['#type']).sort(), ['TableInfo', 'TableInfo', 'ViewLayout']);
  });

  it('save keeps the id, reads back, refuses a taken name; delete removes; /entities finds by id and by namespace+name', async () => {
    const cli = await grok(emu());
    const id = '7a1c0000-0000-4000-8000-00000000abcd';
    const body = {
      id,
      name: 'Hello',
      namespace: 'demo:',
      language: 'python',
      script: '#name: Hello\n#language: python\n#input: string who\n#output: string greeting\ngreeting = "Hi " + who\n',
    };
    const saved = await cli('POST', '/scripts', { json: body });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.json().id, id);
    assert.equal((await cli('GET', `/scripts/${id}`)).json().script, body.script);
    const byId = (await cli('GET', `/entities/${id}`)).json<Json[]>();
    assert.equal(byId[0]['#type'], 'Script');
    const byName = (await cli('GET', '/entities', { query: { namespace: 'demo:', name: 'Hello' } })).json<Json[]>();
    assert.deepEqual(
      byName.map((e) => e.id),
      [id],
    );
    const clash = await cli('POST', '/scripts', { json: { ...body, id: '7a1c0000-0000-4000-8000-00000000abce' } });
    assert.equal(clash.json()['#type'], 'ApiError', 'the same name in the same namespace is refused');
    await cli('POST', '/entities/tag', { query: { tag: 'demo' }, json: [id] });
    assert.deepEqual(
      (await cli('GET', `/scripts/${id}`)).json().entityTags.map((t: Json) => t.tag),
      ['demo'],
    );
    assert.equal((await cli('DELETE', `/scripts/${id}`)).status, 200);
    assert.equal((await cli('GET', `/scripts/${id}`)).json()['#type'], 'ApiError');
  });

  it("a layout saved as the platform serialises it reads back as sent: only the server's own keys added, no nqName", async () => {
    const cli = await grok(emu());
    const id = '7a1c0000-0000-4000-8000-00000000ab10';
    const body = {
      '#type': 'ViewLayout',
      id,
      name: 'Demog10',
      friendlyName: 'demog 10',
      viewStateMap: { containerType: 'horizontal', state: { width: 962, height: 1185 }, children: [{ containerType: 'fill', state: { documentManager: true } }] },
      columns: [{ name: 'subj', type: 'int', id: '310c0600-ac70-11f0-df8c-c5095c75b0dd', friendlyName: 'Subj' }],
    };
    const saved = await cli('POST', '/layouts', { json: body });
    assert.equal(saved.status, 200, saved.text);
    const back = (await cli('GET', `/layouts/${id}`)).json();
    for (const [k, v] of Object.entries(body)) assert.deepEqual(back[k], v, `${k} as sent`);
    // The server's own: dates, author, tag rows; the namespace it files the row under (grok compares without it).
    assert.deepEqual(
      Object.keys(back)
        .filter((k) => !(k in body))
        .sort(),
      ['author', 'createdOn', 'entityTags', 'namespace', 'updatedOn'],
    );
    assert.deepEqual(saved.json(), back, 'the save answers the row a read gives');
  });

  it('a saved script or query is a function: its signature from its header, a call answered by the runner', async () => {
    const cli = await grok(emu());
    const script = {
      id: '7a1c0000-0000-4000-8000-00000000abcf',
      name: 'Hello',
      namespace: 'demo:',
      language: 'python',
      script: '#name: Hello\n#input: string who\n#output: string greeting\n',
    };
    await cli('POST', '/scripts', { json: script });
    const sig = (await cli('GET', '/public/v1/functions/demo.Hello')).json();
    assert.equal(sig.source, 'script');
    assert.deepEqual(
      sig.params.map((p: Json) => [p.name, p.isInput]),
      [
        ['who', true],
        ['greeting', false],
      ],
    );
    const call = await cli('POST', '/public/v1/functions/demo.Hello/call', { json: { who: 'x' } });
    // The runner ran the script (scriptRunner.ts): its header names an output the code never sets.
    assert.match(call.json().message, /Error in python script Hello: the script did not set its output greeting/);
    const query = await cli('POST', '/public/v1/functions/Samples.TopCustomers/call', { json: {} });
    assert.match(query.text, /company_name,freight/);
    // The library's own scripts still compute.
    assert.equal((await cli('POST', '/public/v1/functions/Scripts.Greet/call', { json: { name: 'Ann' } })).json(), 'Hello, Ann.');
  });

  it('server info, the current user with the personal project (the namespace grok records), permissions, packages', async () => {
    const cli = await grok(emu());
    assert.equal((await cli('GET', '/info/server')).json().Version, '1.26.0-emulator');
    assert.equal((await cli('GET', '/users/current')).json().project.name, 'demo');
    await cli('POST', '/public/v1/entities/b1000000-0000-4000-8000-000000000001/shares', { query: { groups: 'Chemists', access: 'View' } });
    const perms = (await cli('GET', '/privileges/permissions', { query: { entityId: 'b1000000-0000-4000-8000-000000000001', all: true } })).json<Json[]>();
    assert.deepEqual(
      perms.map((p) => [p.permission.name, p.userGroup.name]),
      [['View', 'Chemists']],
    );
    assert.ok((await cli('GET', '/packages')).json<Json[]>().some((p) => p.name === 'Scripts'));
  });
});
