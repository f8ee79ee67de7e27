import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { TransferProgress } from '../../src/api/types';
import { pushCsv } from '../../src/platform/tables/push';
import { IDS, sha256, useEmulator } from './harness';

async function collect(run: (sink: PassThrough) => Promise<unknown>): Promise<string> {
  const sink = new PassThrough();
  const parts: Buffer[] = [];
  sink.on('data', (c: Buffer) => parts.push(c));
  await run(sink);
  return Buffer.concat(parts).toString('utf8');
}

describe('tables, dashboards and functions', () => {
  const h = useEmulator();

  it('downloads a table as CSV by name or ID', async () => {
    const byName = await collect((sink) => h.client.downloadTable('Demo:demog', { stream: sink }));
    assert.match(byName, /^USUBJID,AGE,SEX/);
    const table = (await h.state()).tables.find((t) => t.ID === IDS.demogTable);
    assert.equal(sha256(byName), table?.sha256);
    const byId = await collect((sink) => h.client.downloadTable(IDS.demogTable, { stream: sink }));
    assert.equal(byId, byName);
    await h.fails(h.client.downloadTable('Demo:nothing', { stream: new PassThrough() }), 'notFound', /Table Demo:nothing not found/);
  });

  it('pushes long CSV text (an unsaved editor) slice by slice, byte for byte, with progress', async () => {
    // Over many slices of a third of a 1 MiB buffer in UTF-16 units (src/api/transfer.ts): a surrogate
    // pair straddles the first boundary, a slice of 3-byte characters fills a buffer to its last byte, and
    // a lone surrogate goes up as U+FFFD, as Buffer.from would encode it.
    const slice = Math.floor((1024 * 1024) / 3);
    const text = `name,note\n${'a'.repeat(slice - 11)}😀,x\n${'é,€\n'.repeat(300_000)}${'€'.repeat(3 * slice)}\nlone,\ud800\n${'z,😀\n'.repeat(40_000)}`;
    const expected = Buffer.from(text, 'utf8');
    const progress: TransferProgress[] = [];
    const { result, shape } = await pushCsv(h.client, { text }, 'Pushes:long', { onProgress: (p) => progress.push(p) });
    assert.equal(shape.columns, 2);
    assert.equal(shape.bytes, expected.length);
    const table = (await h.state()).tables.find((t) => t.ID === result.ID);
    assert.equal(table?.bytes, expected.length);
    assert.equal(table?.sha256, sha256(expected));
    assert.deepEqual(progress.at(-1), { bytes: expected.length, total: expected.length });
    assert.ok(progress.length >= 1);
  });

  it('long text with a wrong byteLength given fails as bad input and stores no table', async () => {
    const text = `a,b\n${'1,2\n'.repeat(100_000)}`;
    await h.fails(h.client.uploadTable('Pushes:miscounted', { data: text, byteLength: Buffer.byteLength(text) + 10 }), 'badInput', /did not have the declared size/);
    assert.equal(
      (await h.state()).tables.find((t) => t.name === 'miscounted'),
      undefined,
    );
  });

  it('uploads a table and reads the creation result; re-upload keeps the ID', async () => {
    const created = await h.client.uploadTable('Sales 2024:q1 results', { data: 'region,amount\nnorth,10\nsouth,20\n' });
    // As a real server answers: the uploader's login first, `<owner>:<project>:<table>`.
    assert.equal(created.name, 'demo:Sales 2024:q1 results');
    assert.match(created.Markup, /TableInfo/);
    assert.ok(created.URL.startsWith('http://127.0.0.1:'));
    const again = await h.client.uploadTable('Sales 2024:q1 results', { data: 'region,amount\neast,5\n' });
    assert.equal(again.ID, created.ID);
    const csv = await collect((sink) => h.client.downloadTable(created.ID, { stream: sink }));
    assert.equal(csv, 'region,amount\neast,5\n');
    const state = await h.state();
    assert.deepEqual(state.projects.find((p) => p.name === 'Sales 2024')?.tableIds, [created.ID]);
    await h.fails(h.client.uploadTable('a::b', { data: 'x\n' }), 'server', /Invalid table name/);
    await h.fails(h.client.uploadTable('..', { data: 'x\n' }), 'badInput');
  });

  it('uploading a bare name makes a project of its own and leaves a same-named table elsewhere alone', async () => {
    const before = await collect((sink) => h.client.downloadTable('Demo:demog', { stream: sink }));
    const created = await h.client.uploadTable('demog', { data: 'a,b\n1,2\n' });
    assert.equal(created.name, 'demo:demog:demog');
    assert.notEqual(created.ID, IDS.demogTable);
    assert.equal(await collect((sink) => h.client.downloadTable('Demo:demog', { stream: sink })), before);
    assert.equal(await collect((sink) => h.client.downloadTable('demog:demog', { stream: sink })), 'a,b\n1,2\n');
    assert.equal(await collect((sink) => h.client.downloadTable('demo:demog:demog', { stream: sink })), 'a,b\n1,2\n');
  });

  it('names a table owner first and reads it back by its full name, its <project>:<table> name and its ID', async () => {
    const created = await h.client.uploadTable('Sales.q1', { data: 'r\n1\n' });
    assert.equal(created.name, 'demo:Sales:q1');
    assert.equal(created.Markup, `#{x.TableInfo.${created.ID}."demo:Sales:q1"}`);
    for (const name of ['demo:Sales:q1', 'demo.Sales.q1', 'Sales:q1', created.ID]) {
      assert.equal(await collect((sink) => h.client.downloadTable(name, { stream: sink })), 'r\n1\n', name);
    }
    // The full name (any case) replaces the same table; the server's spelling of the owner is kept.
    const again = await h.client.uploadTable('DEMO:Sales:q1', { data: 'r\n2\n' });
    assert.deepEqual([again.ID, again.name], [created.ID, 'demo:Sales:q1']);
    // The listing says so too: namespace + name is the full name (as the grok CLI reads it).
    const listed = (await h.client.listTables({ text: 'q1' })).find((t) => t.id === created.ID);
    assert.equal(listed?.nqName, 'demo:Sales:q1');
    // A dashboard takes the table by its full name.
    const board = await h.client.createDashboard('Owned board', ['demo:Sales:q1']);
    assert.deepEqual((await h.state()).dashboards.find((d) => d.ID === board.ID)?.tableIds, [created.ID]);
    // Another user's namespace is refused and nothing is written.
    const before = (await h.state()).tables.length;
    await h.fails(h.client.uploadTable('alice:Sales:q1', { data: 'r\n3\n' }), 'forbidden', /namespace alice is not yours/);
    assert.equal((await h.state()).tables.length, before);
    await h.fails(h.client.downloadTable('alice:Sales:q1', { stream: new PassThrough() }), 'notFound', /Table alice:Sales:q1 not found/);
    // A seeded table (no owner, `Demo:demog`) is replaced by a push of its own name, keeping its ID.
    const seeded = await h.client.uploadTable('Demo.demog', { data: 'x\n1\n' });
    assert.deepEqual([seeded.ID, seeded.name], [IDS.demogTable, 'Demo:demog']);
  });

  it('detects a table answered with 200 + ApiError where the CSV should be', async () => {
    await h.config({ errorsAsHttp200: true, apiErrorHeader: false, errorBodyAsJsonString: true });
    await h.fails(h.client.downloadTable('Demo:gone', { stream: new PassThrough() }), 'notFound', /Table Demo:gone not found/);
  });

  it('creates dashboards from tables and shares them', async () => {
    const t = await h.client.uploadTable('Demo:second', { data: 'a\n1\n' });
    const layout = { viewers: [{ type: 'Grid' }] };
    const dash = await h.client.createDashboard('Demo board', [IDS.demogTable, t.ID], layout);
    assert.equal(dash.name, 'Demo board');
    let state = await h.state();
    const record = state.dashboards.find((d) => d.ID === dash.ID);
    assert.deepEqual(record?.tableIds, [IDS.demogTable, t.ID]);
    assert.deepEqual(record?.layout, layout);
    const byName = await h.client.createDashboard('Plain', ['Demo:demog']);
    assert.ok(byName.ID);

    await h.client.shareDashboard(dash.ID, ['Chemists', IDS.developers], 'Edit');
    await h.client.shareDashboard(dash.ID, ['alice']);
    state = await h.state();
    const shares = state.dashboards.find((d) => d.ID === dash.ID)?.shares.map((s) => `${s.groupName}:${s.access}`);
    assert.deepEqual(shares?.sort(), ['Chemists:Edit', 'Developers:Edit', 'alice:View']);
    await h.fails(h.client.shareDashboard(dash.ID, ['No Such Group']), 'notFound', /Group No Such Group not found/);
    await h.fails(h.client.shareDashboard(dash.ID, []), 'badInput');
    await h.fails(h.client.createDashboard('x', ['Demo:missing']), 'notFound', /Table Demo:missing not found/);
    await h.fails(h.client.createDashboard('x', []), 'badInput');
  });

  describe('sharing on a current server (no reference shares route)', () => {
    it('falls back to POST /entities/{id}/shares, records the shares and remembers the route', async () => {
      await h.config({ generation: 'new' });
      const dash = await h.client.createDashboard('Shared board', [IDS.demogTable]);
      await h.control('DELETE', 'requests');
      await h.client.shareDashboard(dash.ID, ['Chemists', IDS.developers], 'Edit');
      assert.equal(h.client.routes.shareDashboard, 'current');
      await h.client.shareDashboard(dash.ID, ['alice']);
      const sent = (await h.requests()).map((r) => `${r.method} ${r.path}?${r.query} ${r.status}`);
      assert.deepEqual(sent, [
        `GET /api/public/v1/dashboards/${dash.ID}/shares?groups=Chemists%2C${IDS.developers}&access=Edit 404`,
        `POST /api/public/v1/entities/${dash.ID}/shares?groups=Chemists%2C${IDS.developers}&access=Edit 200`,
        // The choice is remembered: the second share goes straight to the POST.
        `POST /api/public/v1/entities/${dash.ID}/shares?groups=alice&access=View 200`,
      ]);
      const shares = (await h.state()).dashboards.find((d) => d.ID === dash.ID)?.shares.map((s) => `${s.groupName}:${s.access}`);
      assert.deepEqual(shares?.sort(), ['Chemists:Edit', 'Developers:Edit', 'alice:View']);
      // Sharing again unchanged is not a failure (the server reports it as alreadyShared).
      await h.client.shareDashboard(dash.ID, ['alice']);
    });

    it('rejects a partial share and names the group that failed', async () => {
      await h.config({ generation: 'new' });
      const dash = await h.client.createDashboard('Partly shared', [IDS.demogTable]);
      const err = await h.fails(
        h.client.shareDashboard(dash.ID, ['Chemists', 'No Such Group']),
        'server',
        /^Sharing dashboard .* failed: it could not be shared with No Such Group\. Check the group names\.$/,
      );
      assert.equal(err.details.method, 'POST');
      assert.equal(err.details.path, `/public/v1/entities/${dash.ID}/shares`);
      assert.ok(!err.message.includes('Chemists'), err.message);
      // The groups that could be shared with were shared with.
      const shares = (await h.state()).dashboards.find((d) => d.ID === dash.ID)?.shares.map((s) => s.groupName);
      assert.deepEqual(shares, ['Chemists']);
      const posts = (await h.requests()).filter((r) => r.path.endsWith('/shares') && r.method === 'POST');
      assert.equal(posts.length, 1);
    });

    it('an unknown dashboard on the fallback route is notFound', async () => {
      await h.config({ generation: 'new' });
      await h.fails(h.client.shareDashboard('00000000-0000-4000-8000-00000000beef', ['Chemists']), 'notFound', /Entity .* not found/);
    });
  });

  it('calls functions: one output, several outputs, dataframe output, errors', async () => {
    assert.equal(await h.client.callFunction('Demo:Add', { a: 2, b: 40 }), 42);
    assert.deepEqual(await h.client.callFunction('Demo:Echo', { value: { nested: ['x', 1, null] } }), { nested: ['x', 1, null] });
    assert.equal(await h.client.callFunction('Demo:Echo', { value: 'plain text' }), 'plain text');
    assert.equal(await h.client.callFunction('Demo:RowCount', { table: 'Demo:demog' }), 5850);
    const stats = await h.client.callFunction('Demo:ColumnStats', { column: `${IDS.demogTable}/AGE` });
    assert.ok(Array.isArray(stats) && stats.length === 4);
    const csv = await h.client.callFunction('Demo:Filter', { table: 'Demo:demog', column: 'AGE', min: 80 });
    assert.equal(typeof csv, 'string');
    assert.match(csv as string, /^USUBJID,AGE/);
    await h.fails(h.client.callFunction('Demo:Add', { a: 1 }), 'server', /rejected the request \(400\): Missing parameter "a"|Missing parameter "b"/);
    const fail = await h.fails(h.client.callFunction('Demo:Fail', { message: 'custom failure' }), 'server', /reported an error \(500\): custom failure/);
    assert.equal(fail.serverMessage, 'custom failure');
    assert.equal(fail.status, 500);
    assert.equal(fail.details.method, 'POST');
    assert.equal(fail.details.path, '/public/v1/Demo.Fail/call');
    await h.fails(h.client.callFunction('Demo:Add', [] as unknown as Record<string, unknown>), 'badInput');
    await h.fails(h.client.callFunction('', {}), 'badInput');
  });
});
