// The emulator's read-only web pages at the entity URLs it hands out (pages.ts), over raw HTTP as a
// browser asks them: no key, HTML back, everything from the data escaped.
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import { PAGE_ROWS } from './pages';
import { type Emulator, startEmulator } from './server';

const CHEMISTS = 'c0000000-0000-4000-8000-000000000001';

describe('Datagrok API emulator: web pages at entity URLs', function () {
  this.timeout(20_000);
  let emu: Emulator;

  before(async () => {
    emu = await startEmulator({ port: 0 });
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(() => emu.reset());

  /** A page as a browser gets it: no Authorization header. */
  async function browse(url: string) {
    const res = await request(url);
    return { status: res.statusCode, type: String(res.headers['content-type']), html: await res.body.text() };
  }

  async function post(path: string, body: string): Promise<{ ID: string; name: string; URL: string }> {
    const res = await request(`${emu.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${emu.key}` }, body });
    const text = await res.body.text();
    assert.equal(res.statusCode, 200, text);
    return JSON.parse(text);
  }

  it("a pushed table's URL shows its first rows, escaped, with the row count and its project", async () => {
    const rows = Array.from({ length: 45 }, (_, i) => `${i},"<b>n${i}</b> & co"`);
    const created = await post('/public/v1/tables/Lab.%3Cscript%3Ex', `id,"<img src=x onerror=alert(1)>"\n${rows.join('\n')}\n`);
    assert.ok(created.URL.startsWith(`${emu.origin}/p/demo.Lab/`), created.URL);
    const page = await browse(created.URL);
    assert.equal(page.status, 200);
    assert.match(page.type, /^text\/html/);
    assert.match(page.html, /<h1>Table demo:Lab:&lt;script&gt;x<\/h1>/);
    assert.match(page.html, /<th>&lt;img src=x onerror=alert\(1\)&gt;<\/th>/);
    assert.match(page.html, /<td>&lt;b&gt;n0&lt;\/b&gt; &amp; co<\/td>/);
    assert.ok(!/<script|<img|<b>/.test(page.html), 'nothing from the data is markup');
    assert.equal((page.html.match(/<tr>/g) ?? []).length, PAGE_ROWS + 1, 'header and the first rows');
    assert.match(page.html, /45 rows × 2 columns; the first 20 shown/);
    assert.match(page.html, /<a href="\/p\/demo\.Lab">Lab<\/a>/);
  });

  it("a dashboard's URL lists its tables, each linking to its page; a project page too", async () => {
    const sales = await post('/public/v1/tables/Sales.q1', 'region,revenue\nnorth,10\n');
    const dash = await post(`/public/v1/dashboards/Sales%20%26%20more/${sales.ID},Demo.demog`, '{}');
    const page = await browse(dash.URL);
    assert.equal(page.status, 200);
    assert.match(page.html, /<h1>Dashboard Sales &amp; more<\/h1>/);
    assert.match(page.html, /<a href="\/p\/demo\.Sales\/q1">demo:Sales:q1<\/a>/);
    assert.match(page.html, /<a href="\/p\/Demo\/demog">Demo:demog<\/a>/);
    const table = await browse(`${emu.origin}/p/Sales/q1`);
    assert.match(table.html, /<td>north<\/td><td>10<\/td>/);
    // The seeded dashboard, and a project addressed as real links spell it (`namespace.project`).
    assert.match((await browse(`${emu.origin}/p/World%20overview`)).html, /Geo:world_cities/);
    const project = await browse(`${emu.origin}/p/demo.Demo`);
    assert.match(project.html, /<h1>Project Demo<\/h1>/);
    assert.match(project.html, /Demo:car_models/);
  });

  it("a group's page lists its members (users and admins told apart) and the groups it belongs to", async () => {
    for (const address of [CHEMISTS, 'Chemists']) {
      const page = await browse(`${emu.origin}/groups/${address}`);
      assert.equal(page.status, 200);
      assert.match(page.html, /<h1>Group Chemists<\/h1>/);
      assert.match(page.html, /Medicinal chemistry team/);
      assert.match(page.html, /Alice Andersen \(alice\)<\/a> <span class="note">user<\/span>/);
      assert.match(page.html, /\(demo\)<\/a> <span class="note">user, admin<\/span>/);
    }
    const alice = await browse(`${emu.origin}/groups/alice`);
    assert.match(alice.html, /<h1>User Alice Andersen<\/h1>/);
    assert.match(alice.html, /<h2>Member of<\/h2><ul>.*Chemists.*<\/ul>/s);
  });

  it('the Groups page (Open Groups Page in Browser) lists groups and people apart, each linked to its page', async () => {
    const page = await browse(`${emu.origin}/groups`);
    assert.equal(page.status, 200);
    assert.match(page.type, /text\/html/);
    const [groups, people] = page.html.split('<h2>People</h2>');
    assert.match(groups ?? '', new RegExp(`<a href="/groups/${CHEMISTS}">[^<]*Chemists`));
    assert.doesNotMatch(groups ?? '', /\(alice\)/);
    assert.match(people ?? '', /Alice Andersen \(alice\)<\/a>/);
  });

  it('an unknown entity is a 404 page saying so; other paths outside /api/ stay plain 404s; the API still needs its key', async () => {
    const missing = await browse(`${emu.origin}/p/No%20such`);
    assert.equal(missing.status, 404);
    assert.match(missing.type, /^text\/html/);
    assert.match(missing.html, /The project or dashboard &quot;No such&quot; is not on this server/);
    assert.equal((await browse(`${emu.origin}/groups/nobody`)).status, 404);
    assert.equal((await browse(`${emu.origin}/p/Demo/nothing`)).status, 404);
    const other = await browse(`${emu.origin}/public/v1/groups`);
    assert.equal(other.status, 404);
    assert.doesNotMatch(other.type, /html/);
    assert.equal((await browse(`${emu.baseUrl}/public/v1/tables/Demo.demog`)).status, 401);
  });
});
