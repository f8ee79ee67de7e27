// Contract: the Python package datagrok-api (old and new clients) against the emulator, requests as it
// sends them and the answers its parsers need.
import * as assert from 'node:assert/strict';
import { configure, ID, type Json, python, useEmulator } from './clients';

describe('contract: the Python client (datagrok-api)', () => {
  const emu = useEmulator();

  it('reads admin=True / admin=False (Python booleans) case-insensitively: admins only / non-admins only', async () => {
    const py = python(emu());
    const names = async (route: string, admin?: boolean) => {
      const res = await py('GET', `/public/v1/groups/${ID.chemists}/${route}`, { query: admin === undefined ? {} : { admin } });
      assert.equal(res.status, 200, res.text);
      return res
        .json<Json[]>()
        .map((g) => g.name)
        .sort();
    };
    assert.deepEqual(await names('members'), ['alice', 'demo']);
    assert.deepEqual(await names('members', true), ['demo']);
    assert.deepEqual(await names('members', false), ['alice']);
    const memberships = await py('GET', `/public/v1/groups/${ID.demo}/memberships`, { query: { admin: false } });
    const notAdmin = memberships.json<Json[]>().map((g) => g.name);
    assert.ok(notAdmin.includes('Developers') && !notAdmin.includes('Chemists'), notAdmin.join(', '));
  });

  it('lists groups with relations that carry both parent and child, in children and in parents', async () => {
    const res = await python(emu())('GET', '/public/v1/groups', { query: { text: ' and personal = false', include: 'children.child,parents.parent' } });
    assert.equal(res.status, 200, res.text);
    const groups = res.json<Json[]>();
    assert.ok(groups.length > 0 && groups.every((g) => !g.personal));
    const chemists = groups.find((g) => g.id === ID.chemists)!;
    assert.ok(chemists.children.length >= 2);
    for (const g of groups) {
      for (const rel of [...g.children, ...g.parents]) {
        // The new client reads data["parent"] and data["child"] directly (a missing key is a KeyError).
        assert.ok('parent' in rel && 'child' in rel, JSON.stringify(rel));
        assert.equal(typeof rel.isAdmin, 'boolean');
      }
      for (const rel of g.children) assert.equal(rel.parent.id, g.id);
      for (const rel of g.parents) assert.equal(rel.child.id, g.id);
    }
    assert.deepEqual(chemists.children.map((r: Json) => r.child.name).sort(), ['alice', 'demo']);
  });

  it('membership requests carry createdOn, updatedOn and a null resolutionDate while pending', async () => {
    const py = python(emu());
    const res = await py('POST', `/public/v1/groups/${ID.biologists}/request`);
    assert.equal(res.status, 200, res.text);
    const request = res.json();
    assert.ok(typeof request.createdOn === 'string' && typeof request.updatedOn === 'string', res.text);
    assert.ok('resolutionDate' in request && request.resolutionDate === null, res.text);
    assert.equal(request.approved, null);
    const pending = (await py('GET', `/public/v1/groups/${ID.chemists}/requests`)).json<Json[]>();
    assert.ok(pending.length > 0 && pending.every((r) => r.resolutionDate === null && typeof r.updatedOn === 'string'));
  });

  it('saves a group under its client-made id, then adds a member by re-POSTing it (save or update)', async () => {
    const py = python(emu());
    const id = 'a1b2c3d4-0000-11ef-8000-0242ac120002'; // uuid1, as Model.ensure_id() makes it
    const group = { id, name: 'Python Team', friendlyName: 'Python Team', description: 'made by the client', personal: false, hidden: false, parents: [], children: [] };
    const created = await py('POST', '/public/v1/groups', { query: { saveRelations: true }, json: group });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.json().id, id, 'the saved group keeps the client id');
    // add_member(bob): the same group, its id, one more relation in children; saved again.
    const relation = { id: 'a1b2c3d4-0001-11ef-8000-0242ac120002', isAdmin: false, parent: { id, name: 'Python Team' }, child: { id: ID.bob, name: 'bob' } };
    const body = created.json<Json>();
    const saved = await py('POST', '/public/v1/groups', { query: { saveRelations: true }, json: { ...body, children: [...body.children, relation] } });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.json().id, id);
    const members = (await py('GET', `/public/v1/groups/${id}/members`))
      .json<Json[]>()
      .map((g) => g.name)
      .sort();
    assert.deepEqual(members, ['bob', 'demo']);
    const all = (await py('GET', '/public/v1/groups', { query: { text: 'Python Team' } })).json<Json[]>();
    assert.equal(all.length, 1, 'updated, not created twice');
  });

  it('shares an entity: status success, partial_success, or failed when nothing was shared', async () => {
    const py = python(emu());
    const share = async (groups: string) => {
      const res = await py('POST', `/public/v1/entities/${ID.demogTable}/shares`, { query: { groups, access: 'View' } });
      assert.equal(res.status, 200, res.text);
      return res.json();
    };
    assert.equal((await share('Chemists')).status, 'success');
    const partly = await share('Developers,No Such Group');
    assert.equal(partly.status, 'partial_success');
    assert.deepEqual(partly.failed, ['No Such Group']);
    const nothing = await share('No Such Group,Nor This');
    assert.equal(nothing.status, 'failed', 'the new client raises on failed');
    assert.deepEqual(nothing.shared, []);
  });

  it('reads a connection whose namespace + name is its grok name (System:DemoFiles)', async () => {
    const py = python(emu());
    const res = await py('GET', '/public/v1/connections/System.DemoFiles');
    assert.equal(res.status, 200, res.text);
    const c = res.json();
    assert.equal(c.namespace + c.name, 'System:DemoFiles');
    assert.equal(c.dataSource, 'Files');
    // The grok name built that way addresses the connector again (download with ':' replaced by '.').
    const file = await py('GET', `/public/v1/files/${(c.namespace + c.name).replaceAll(':', '.')}/readme.md`, { contentType: 'application/octet-stream' });
    assert.equal(file.status, 200);
    assert.match(file.text, /Demo files/);
  });

  it('an error answered as HTTP 200 carries the api-error header, its text body encoded once', async () => {
    const py = python(emu());
    await configure(emu(), { errorsAsHttp200: true });
    const json = await py('GET', '/public/v1/groups/00000000-0000-4000-8000-00000000dead');
    assert.equal(json.status, 200);
    assert.ok(json.headers.has('api-error'), 'the old client raises only when api-error is present');
    await configure(emu(), { errorBodyAsJsonString: true });
    const text = await py('GET', '/public/v1/groups/00000000-0000-4000-8000-00000000dead');
    assert.ok(text.headers.has('api-error'));
    assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
    const parsed = JSON.parse(text.text); // parsed once, as the grok CLI does
    assert.equal(parsed['#type'], 'ApiError');
    assert.equal(parsed.errorCode, 404);
    assert.match(parsed.message, /not found/);
  });

  it('refuses a JSON array as a dashboard layout and an empty body as a table', async () => {
    const py = python(emu());
    const array = await py('POST', `/public/v1/dashboards/Array%20board/${ID.demogTable}`, { json: [{ type: 'Grid' }] });
    assert.equal(array.status, 400, array.text);
    const object = await py('POST', `/public/v1/dashboards/Object%20board/${ID.demogTable}`, { json: { views: [] } });
    assert.equal(object.status, 200, object.text);
    const empty = await py('POST', '/public/v1/tables/Empty.t', { body: '', contentType: 'text/csv' });
    assert.equal(empty.status, 400, empty.text);
    assert.equal((await py('GET', '/public/v1/tables/Empty.t')).status, 404, 'no table was created');
    const csv = await py('POST', '/public/v1/tables/Full.t', { body: 'a,b\n1,2\n', contentType: 'text/csv' });
    assert.equal(csv.status, 200, csv.text);
  });

  it('upload_table answers the owner-first full name, and download_table reads the table by it', async () => {
    const py = python(emu());
    // upload_table(name, df): `name.replace(':', '.')`, POST the CSV, return response.json().
    const bare = await py('POST', '/public/v1/tables/MyTable', { body: 'a,b\n1,2\n', contentType: 'text/csv' });
    assert.equal(bare.status, 200, bare.text);
    assert.equal(bare.json().name, 'demo:MyTable:MyTable', "a bare name: its own project, in the uploader's namespace");
    const two = (await py('POST', '/public/v1/tables/Sales.q1', { body: 'r\n1\n', contentType: 'text/csv' })).json();
    assert.equal(two.name, 'demo:Sales:q1');
    // download_table(name): "UUID, Grok names (e.g. Namespace.Project.Table)", every ':' made '.'.
    for (const name of [bare.json<Json>().name, bare.json<Json>().ID]) {
      const csv = await py('GET', `/public/v1/tables/${String(name).replaceAll(':', '.')}`, { contentType: 'text/plain' });
      assert.equal(csv.status, 200, csv.text);
      assert.equal(csv.text, 'a,b\n1,2\n');
    }
    // The full name uploads to the same table; another user's namespace is refused, nothing written.
    assert.equal((await py('POST', '/public/v1/tables/demo.Sales.q1', { body: 'r\n2\n', contentType: 'text/csv' })).json().ID, two.ID);
    const foreign = await py('POST', '/public/v1/tables/alice.Sales.q1', { body: 'r\n3\n', contentType: 'text/csv' });
    assert.equal(foreign.status, 403, foreign.text);
    assert.equal((await py('GET', '/public/v1/tables/alice.Sales.q1')).status, 404);
  });

  it('reads the current user, users by filter, by id and by login', async () => {
    const py = python(emu());
    const me = (await py('GET', '/public/v1/users/current')).json();
    assert.equal(me.login, 'demo');
    assert.ok(['new', 'active', 'blocked', 'guest'].includes(me.status), 'UserStatus(data["status"])');
    assert.equal(me.group.id, ID.demo);
    const found = (await py('GET', '/public/v1/users', { query: { text: 'alice' } })).json<Json[]>();
    assert.deepEqual(
      found.map((u) => u.login),
      ['alice'],
    );
    assert.equal((await py('GET', `/public/v1/users/${found[0].id}`)).json().login, 'alice');
    assert.equal((await py('GET', '/public/v1/users/bob')).json().email, 'bob@example.com');
    assert.equal((await py('GET', '/public/v1/users/nobody')).status, 404);
  });

  it('syncs a folder: 204 when empty, else multipart parts with eTags, not-modified and deleted', async () => {
    const py = python(emu());
    const first = await py('POST', '/public/v1/files/sync/System.DemoFiles/geo', { query: { recursive: true }, json: {} });
    assert.equal(first.status, 200, first.text);
    const type = first.headers.get('content-type') ?? '';
    assert.match(type, /^multipart\//);
    const parts = multipart(first.text, /boundary=(.+)$/.exec(type)![1]);
    assert.deepEqual(parts.map((p) => p.filename).sort(), ['cities.csv', 'countries.csv']);
    const cities = parts.find((p) => p.filename === 'cities.csv')!;
    assert.match(cities.body, /^city,country/);
    const eTag = cities.headers['x-file-e-tag'];
    assert.ok(eTag);
    const again = await py('POST', '/public/v1/files/sync/System.DemoFiles/geo', { query: { recursive: true, ext: 'csv' }, json: { 'cities.csv': eTag, 'gone.csv': 'x' } });
    const second = multipart(again.text, /boundary=(.+)$/.exec(again.headers.get('content-type') ?? '')![1]);
    assert.equal(second.find((p) => p.filename === 'cities.csv')?.headers['x-file-status'], 'not-modified');
    assert.equal(second.find((p) => p.filename === 'gone.csv')?.headers['x-file-status'], 'deleted');
    assert.match(second.find((p) => p.filename === 'countries.csv')?.body ?? '', /^country,code/);
    const empty = await py('POST', '/public/v1/files/sync/System.AppData/', { query: { recursive: true }, json: {} });
    assert.equal(empty.status, 204);
  });
});

/** The parts of a multipart body, as requests_toolbelt's decoder gives them. */
function multipart(body: string, boundary: string): Array<{ filename: string; headers: Record<string, string>; body: string }> {
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((raw) => {
      const part = raw.replace(/^\r\n/, '').replace(/\r\n$/, '');
      const end = part.indexOf('\r\n\r\n');
      const headers: Record<string, string> = {};
      for (const line of part.slice(0, end).split('\r\n')) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const filename = (headers['content-disposition'] ?? '').split('filename=')[1]?.replace(/^"|"$/g, '') ?? '';
      return { filename, headers, body: part.slice(end + 4) };
    });
}
