// The server's packages and their published versions (the Packages view's) over real HTTP: `GET /packages`
// as the emulator answers it, read once per session, a failed read forgotten so the next asks again.
import * as assert from 'node:assert/strict';
import { ServerPackages, serverPackageOf, serverVersionOf, serverVersionText } from '../../src/platform/packages/serverPackages';
import { useEmulator } from './harness';

describe('server packages: the versions the server has', () => {
  const h = useEmulator();
  const model = () => new ServerPackages({ client: async () => h.client, currentUser: () => h.client.currentUserGroup() });

  it('reads each package with its published versions; the current release is the version shown', async () => {
    const packages = model();
    const list = await packages.list();
    const demo = serverPackageOf(list, { name: 'demo', friendlyName: 'Demo' });
    assert.deepEqual(demo?.versions, [{ version: '1.0.0', isCurrent: true, isLatest: true, debug: false }]);
    assert.equal(serverVersionText(serverVersionOf(demo)), 'server 1.0.0');
    assert.equal(serverVersionText(serverVersionOf(serverPackageOf(list, { name: '@acme/sketch' }))), 'not published');
    const asked = h.log.length;
    await packages.list();
    assert.equal(h.log.length, asked, 'read once');
    packages.reload();
    await packages.list();
    assert.equal(h.log.length, asked + 1, 'asked again after reload');
  });

  it("a failed read rejects with the server's message and is not kept", async () => {
    const packages = model();
    await h.fault({ match: 'GET /api/packages', status: 500, apiError: 'packages are down', count: 1 });
    await assert.rejects(packages.list(), /packages are down/);
    assert.ok((await packages.list()).length > 0, 'the next read asks again');
  });
});
