import * as assert from 'node:assert/strict';
import type { Group } from '../../src/api/types';
import { shareCandidates } from '../../src/platform/groups/sharing';

const g = (id: string, name: string, personal = false): Group => ({ id, name, personal }) as Group;

describe('sharing: who a share offers', () => {
  const me = g('AAAA-1', 'demo', true);
  const found = [g('bbbb-2', 'Chemists'), me, g('cccc-3', 'alice', true)];

  it('leaves the user themself out (IDs compared ignoring case), keeps the order of the rest', () => {
    assert.deepEqual(
      shareCandidates(found, 'aaaa-1').map((x) => x.name),
      ['Chemists', 'alice'],
    );
  });

  it('offers everyone found when the user is not known, and never changes the list it was given', () => {
    assert.deepEqual(
      shareCandidates(found, undefined).map((x) => x.name),
      ['Chemists', 'demo', 'alice'],
    );
    assert.equal(found.length, 3);
  });
});
