// Keys that cannot travel in a header are refused before any request, saying where the bad character
// is; a key a server echoes back (whole, encoded, or cut short) never reaches a message.
import * as assert from 'node:assert/strict';
import { DatagrokError } from '../../src/api/errors';
import { apiKeyProblem } from '../../src/api/names';
import { type FaultKit, failsWith, KEY, reply, startKit } from './kit';

describe('faults: keys', () => {
  let kit: FaultKit;
  before(async () => {
    kit = await startKit();
  });
  after(() => kit.close());

  const cases = [
    { what: 'a zero-width space picked up by a copy', key: 'abcd\u200befgh', message: /invisible character \(U\+200B\) at position 5 of 9/ },
    { what: 'a non-breaking space', key: 'abcd\u00a0efgh', message: /invisible character \(U\+00A0\) at position 5/ },
    { what: 'a typographic character', key: 'abcd\u2013efgh', message: /not plain ASCII \(U\+2013\) at position 5/ },
    { what: 'a space inside the key', key: 'abcd efgh', message: /a space \(U\+0020\) at position 5/ },
    { what: 'an accented letter', key: 'clé-1234', message: /not plain ASCII \(U\+00E9\) at position 3/ },
  ];
  for (const c of cases) {
    it(`a key with ${c.what} is refused before any request, naming the position`, async () => {
      const before = kit.seen.length;
      const e = await failsWith(kit.client({ apiKey: c.key }).listGroups(), 'badInput', c.message);
      assert.match(e.message, /Copy the key again/);
      assert.equal(kit.seen.length, before, 'nothing was sent');
    });
  }

  it('a plain key passes the check', () => {
    assert.equal(apiKeyProblem(KEY), undefined);
  });

  const echoes = [
    { what: 'whole', text: `Invalid key ${KEY}` },
    { what: 'percent-encoded', text: `Invalid key ${encodeURIComponent('kit-key/0123456789+abc')}`, key: 'kit-key/0123456789+abc' },
    { what: 'cut short to its first 12 characters', text: `Invalid key ${KEY.slice(0, 12)}…` },
    { what: 'after "Bearer "', text: 'Header was: Bearer something-else-entirely' },
  ];
  for (const e of echoes) {
    it(`a server echoing the key ${e.what} in an error does not get it into the message`, async () => {
      kit.answer(reply(500, JSON.stringify({ message: e.text }), { 'content-type': 'application/json' }));
      const key = e.key ?? KEY;
      let caught: unknown;
      try {
        await kit.client({ apiKey: key }).listGroups();
      } catch (err) {
        caught = err;
      }
      assert.ok(caught instanceof DatagrokError);
      const all = `${caught.message} ${caught.serverMessage}`;
      assert.ok(!all.includes(key.slice(0, 8)) && !all.includes(encodeURIComponent(key).slice(0, 10)), all);
      assert.ok(!all.includes('something-else-entirely'), all);
      assert.match(all, /\*\*\*/);
    });
  }
});
