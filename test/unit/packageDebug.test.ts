// The pure parts of debugging a package: the server's web root and the page to open, the pwa-chrome
// configuration (source maps of webpack/rspack builds mapped into the package), which browser is found
// where, and the configurations offered for a workspace's packages.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { browserCandidates, findBrowser, noBrowserMessage } from '../../src/platform/packages/debug/browserPath';
import { chromeConfiguration, configurationsFor, pageUrl, webOrigin } from '../../src/platform/packages/debug/debugConfiguration';
import { copyDebugPackage } from '../fixtures/debugPackage';

// biome-ignore lint/suspicious/noTemplateCurlyInString: the launch.json variable the configurations hold
const WORKSPACE_FOLDER = '${workspaceFolder}';

describe('packageDebug: the launch configuration', () => {
  it("the web root is the API's base URL without /api; the page is the root, a path on it or a URL on the same server", () => {
    assert.equal(webOrigin('https://public.datagrok.ai/api'), 'https://public.datagrok.ai');
    assert.equal(webOrigin('http://127.0.0.1:8090/api/'), 'http://127.0.0.1:8090');
    assert.equal(webOrigin('https://host/datagrok/api'), 'https://host/datagrok');
    const root = 'https://host';
    assert.equal(pageUrl(root, undefined), 'https://host/');
    assert.equal(pageUrl(root, '  '), 'https://host/');
    assert.equal(pageUrl(root, '/apps/Chem'), 'https://host/apps/Chem');
    assert.equal(pageUrl(root, 'apps/Chem'), 'https://host/apps/Chem');
    assert.equal(pageUrl(root, 'https://host/apps/Chem?x=1'), 'https://host/apps/Chem?x=1');
    assert.throws(() => pageUrl(root, 'https://elsewhere.example/apps/Chem'), /not on the server you are signed in to \(https:\/\/host\)/);
    assert.throws(() => pageUrl(root, 'http://[bad'), /"url" is not a valid URL/);
  });

  it("resolves to VS Code's JavaScript debugger: the browser, the extension's profile, source maps into the package", () => {
    const folder = path.resolve('/work/pkgs/chem');
    const c = chromeConfiguration({ folder, packageName: '@datagrok/chem', url: 'https://host/', browser: '/usr/bin/chromium', profile: '/p', runtimeArgs: ['--headless=new'] });
    assert.equal(c.type, 'pwa-chrome');
    assert.equal(c.request, 'launch');
    assert.equal(c.runtimeExecutable, '/usr/bin/chromium');
    assert.deepEqual(c.runtimeArgs, ['--headless=new']);
    assert.equal(c.userDataDir, '/p');
    assert.equal(c.webRoot, folder);
    assert.equal(c.sourceMaps, true);
    assert.equal(c.browserLaunchLocation, 'workspace');
    assert.deepEqual(c.outFiles, [path.join(folder, 'dist', '**', '*.js'), `!${path.join(folder, '**', 'node_modules', '**')}`]);
    const overrides = c.sourceMapPathOverrides as Record<string, string>;
    // rspack/webpack name sources by the package (the npm name, and without its scope).
    assert.equal(overrides['webpack://@datagrok/chem/./*'], path.join(folder, '*'));
    assert.equal(overrides['webpack://chem/./*'], path.join(folder, '*'));
    assert.equal(overrides['webpack:///./*'], path.join(folder, '*'));
    assert.equal(c.name, 'Debug chem on Datagrok');
    assert.equal(chromeConfiguration({ folder, packageName: 'x', url: 'u', browser: 'b', profile: 'p' }).runtimeArgs, undefined);
  });

  it('offers a configuration per package of a workspace folder, its path relative to the workspace folder', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'dg-debug-configs-'));
    try {
      assert.deepEqual(configurationsFor(root), []);
      copyDebugPackage(path.join(root, 'packages', 'debugdemo'));
      assert.deepEqual(configurationsFor(root), [{ type: 'datagrok', request: 'launch', name: 'Debug debugdemo on Datagrok', package: `${WORKSPACE_FOLDER}/packages/debugdemo` }]);
      assert.equal(configurationsFor(path.join(root, 'packages', 'debugdemo'))[0].package, WORKSPACE_FOLDER);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('packageDebug: which browser', () => {
  const host = (platform: NodeJS.Platform, env: Record<string, string>, present: string[]) => ({ platform, env, exists: (p: string) => present.includes(p) });

  it('Linux: CHROME_PATH first, then Chrome, Chromium, Edge on PATH', () => {
    assert.equal(findBrowser(host('linux', { PATH: '/usr/bin:/bin' }, ['/usr/bin/chromium', '/usr/bin/microsoft-edge'])), '/usr/bin/chromium');
    assert.equal(findBrowser(host('linux', { PATH: '/usr/bin' }, ['/usr/bin/google-chrome', '/usr/bin/chromium'])), '/usr/bin/google-chrome');
    assert.equal(findBrowser(host('linux', { PATH: '/usr/bin', CHROME_PATH: '/opt/c/chrome' }, ['/opt/c/chrome', '/usr/bin/chromium'])), '/opt/c/chrome');
    assert.equal(findBrowser(host('linux', { PATH: '/nowhere' }, [])), undefined);
  });

  it('macOS and Windows: where their installers put Chrome and Edge', () => {
    assert.equal(
      findBrowser(host('darwin', { HOME: '/Users/a' }, ['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'])),
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    );
    const win = browserCandidates(host('win32', { LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files' }, []));
    assert.ok(win.includes('C:\\Users\\a\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe'));
    assert.ok(win.includes('C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe'));
  });

  it('none found: the message says how to set runtimeExecutable, with an example for the platform', () => {
    assert.match(noBrowserMessage('linux'), /No Chrome, Edge or Chromium was found.*"runtimeExecutable".*launch\.json.*\/usr\/bin\/chromium/s);
    assert.match(noBrowserMessage('win32'), /chrome\.exe/);
  });
});
