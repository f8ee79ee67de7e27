import * as assert from 'node:assert/strict';
import { useEmulator } from './harness';

describe('redirects', () => {
  const h = useEmulator();

  it('a 3xx is not followed (the key stays with the server it was given to) and says which URL to use', async () => {
    await h.fault({ match: 'GET /api/public/v1/groups', html: true, status: 301 });
    const err = await h.fails(h.client.listGroups(), 'badInput', /redirects to another address \(301\)\. Use the address it redirects to/);
    assert.equal(err.status, 301);
    assert.ok(!err.message.includes('<'), 'no HTML in the message');
    assert.equal((await h.requests()).length, 1, 'neither followed nor retried');
  });
});
