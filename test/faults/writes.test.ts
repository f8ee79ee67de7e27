// A write answered 2xx with something that is not the route's answer must fail, never pass for success:
// a save reported done while a gateway's login page came back loses the user's edit.
import * as assert from 'node:assert/strict';
import type { DatagrokClient } from '../../src/api/client';
import { type FaultKit, failsWith, LOGIN_PAGE, reply, startKit } from './kit';

type Write = { name: string; run: (c: DatagrokClient) => Promise<unknown> };

const writes: Write[] = [
  { name: 'a file upload (save)', run: (c) => c.uploadFile('System:DemoFiles', 'notes.txt', { data: new TextEncoder().encode('edited') }) },
  { name: 'a file delete', run: (c) => c.deleteFile('System:DemoFiles', 'notes.txt') },
  { name: 'an approve', run: (c) => c.approveRequest('r-1') },
  { name: 'a deny', run: (c) => c.denyRequest('r-1') },
  { name: 'a dashboard share', run: (c) => c.shareDashboard('d-1', ['Chemists'], 'View') },
];

const bad = [
  {
    what: 'a sign-in gateway page (200, text/html)',
    answer: reply(200, LOGIN_PAGE, { 'content-type': 'text/html' }),
    message: /sign-in page instead of data: a sign-in gateway stands in front of it\. Open http:\/\/127\.0\.0\.1:\d+ in the browser/,
  },
  { what: 'an HTML page served as text/plain', answer: reply(200, LOGIN_PAGE, { 'content-type': 'text/plain' }), message: /sign-in gateway stands in front of it/ },
  {
    what: 'an error as plain text ("Internal error: disk full")',
    answer: reply(200, 'Internal error: disk full', { 'content-type': 'text/plain' }),
    message: /answered "Internal error: disk full" instead of confirming/,
  },
];

const good = [
  { what: 'an empty body', answer: reply(200, '') },
  { what: '"OK"', answer: reply(200, 'OK', { 'content-type': 'text/plain' }) },
  { what: 'JSON true', answer: reply(200, 'true', { 'content-type': 'application/json' }) },
  { what: 'a JSON object', answer: reply(200, '{"status":"success"}', { 'content-type': 'application/json' }) },
];

describe('faults: writes answered 2xx with something else', () => {
  let kit: FaultKit;
  before(async () => {
    kit = await startKit();
  });
  after(() => kit.close());

  for (const w of writes) {
    for (const b of bad) {
      it(`${w.name} answered with ${b.what} fails as unexpectedAnswer, not success`, async () => {
        kit.answer(b.answer);
        const before = kit.seen.length;
        await failsWith(w.run(kit.client()), 'unexpectedAnswer', b.message);
        assert.equal(kit.seen.length, before + 1, 'sent once, never retried');
      });
    }
  }

  for (const g of good) {
    it(`a write answered with ${g.what} succeeds`, async () => {
      kit.answer(g.answer);
      for (const w of writes) await w.run(kit.client());
    });
  }

  it('a JSON call answered with a gateway page (200) says so and names the address to sign in at', async () => {
    kit.answer(reply(200, LOGIN_PAGE, { 'content-type': 'text/html; charset=utf-8' }));
    await failsWith(kit.client().listGroups(), 'unexpectedAnswer', /sign-in page instead of data.*Open http:\/\/127\.0\.0\.1:\d+ in the browser and sign in there/);
  });

  it('a write answered with another web page (not a sign-in page) fails too', async () => {
    kit.answer(reply(200, '<html><body><h1>Welcome to nginx!</h1></body></html>', { 'content-type': 'text/html' }));
    await failsWith(
      kit.client().uploadFile('System:DemoFiles', 'x.txt', { data: 'x' }),
      'unexpectedAnswer',
      /web page came back instead of the server's answer.*Nothing is known to have been saved/,
    );
  });

  it('error text that echoes the key is shown without it', async () => {
    kit.answer(reply(200, 'Denied for key kit-key-0123456789abcdef and kit-key-01234567', { 'content-type': 'text/plain' }));
    const e = await failsWith(kit.client().approveRequest('r-1'), 'unexpectedAnswer');
    assert.match(e.message, /Denied for key \*\*\* and \*\*\*/);
  });
});
