// The Debian packages `npm test` checks (test/host/systemPackages.ts) are the ones `.ci/run` installs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SYSTEM_PACKAGES } from '../host/systemPackages';

describe('System packages of the tests', () => {
  it('.ci/run installs exactly what npm test checks', () => {
    const script = fs.readFileSync(path.join(__dirname, '..', '..', '..', '.ci', 'run'), 'utf8');
    const listed = script.match(/^for pkg in (.+); do$/m)?.[1].split(/\s+/);
    assert.ok(listed, ".ci/run's `for pkg in …; do` line");
    assert.deepEqual([...listed].sort(), Object.keys(SYSTEM_PACKAGES).sort());
  });
});
