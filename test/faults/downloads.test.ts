// Downloads that must not be saved as the file: a body in an encoding never asked for, a login page in
// place of a CSV. Nothing is written, not even a partial file; a real web page still downloads.
import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type FaultKit, failsWith, LOGIN_PAGE, reply, startKit } from './kit';

const CSV = 'a,b\n1,2\n';

describe('faults: downloads that are not the file', () => {
  let kit: FaultKit;
  let dir: string;
  before(async () => {
    kit = await startKit();
    dir = await mkdtemp(join(tmpdir(), 'dg-faults-'));
  });
  after(async () => {
    await kit.close();
    await rm(dir, { recursive: true, force: true });
  });

  const gzip = reply(200, gzipSync(CSV), { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' });

  it('a gzip body never asked for is refused on download to a file, leaving no file', async () => {
    kit.answer(gzip);
    const target = join(dir, 'gz.csv');
    await failsWith(kit.client().downloadFile('System:DemoFiles', 'data.csv', { file: target }), 'unexpectedAnswer', /compressed \(gzip\).*Nothing was saved/);
    assert.deepEqual(await readdir(dir), []);
  });

  it('a gzip body is refused when a file is read into an editor', async () => {
    kit.answer(gzip);
    await failsWith(kit.client().readFile('System:DemoFiles', 'data.csv'), 'unexpectedAnswer', /compressed \(gzip\)/);
  });

  it('a br body is refused on a table download', async () => {
    kit.answer(reply(200, 'x', { 'content-encoding': 'br' }));
    await failsWith(kit.client().downloadTable('Demo:demog', { file: join(dir, 't.csv') }), 'unexpectedAnswer', /compressed \(br\)/);
    assert.deepEqual(await readdir(dir), []);
  });

  it('Content-Encoding: identity is the bytes as they are', async () => {
    kit.answer(reply(200, CSV, { 'content-encoding': 'identity' }));
    const target = join(dir, 'identity.csv');
    await kit.client().downloadFile('System:DemoFiles', 'data.csv', { file: target });
    assert.equal(await readFile(target, 'utf8'), CSV);
    await rm(target);
  });

  it('a login page served as text/html for data.csv is refused, leaving no file', async () => {
    kit.answer(reply(200, LOGIN_PAGE, { 'content-type': 'text/html' }));
    const target = join(dir, 'page.csv');
    await failsWith(
      kit.client().downloadFile('System:DemoFiles', 'data.csv', { file: target }),
      'unexpectedAnswer',
      /web page came back.*Open http:\/\/127\.0\.0\.1:\d+ in the browser/,
    );
    assert.deepEqual(await readdir(dir), []);
  });

  it('a login page is refused as a file read into an editor and as a table', async () => {
    kit.answer(reply(200, LOGIN_PAGE, { 'content-type': 'text/html;charset=UTF-8' }));
    await failsWith(kit.client().readFile('System:DemoFiles', 'notes.txt'), 'unexpectedAnswer', /web page came back/);
    await failsWith(kit.client().downloadTable('Demo:demog', { file: join(dir, 'table.csv') }), 'unexpectedAnswer', /web page came back/);
    assert.deepEqual(await readdir(dir), []);
  });

  it('an .html file served as text/html is the file: it downloads', async () => {
    kit.answer(reply(200, LOGIN_PAGE, { 'content-type': 'text/html' }));
    const target = join(dir, 'report.html');
    await kit.client().downloadFile('System:DemoFiles', 'reports/report.html', { file: target });
    assert.equal(await readFile(target, 'utf8'), LOGIN_PAGE);
    assert.equal(new TextDecoder().decode(await kit.client().readFile('System:DemoFiles', 'index.HTM')), LOGIN_PAGE);
    await rm(target);
  });
});
