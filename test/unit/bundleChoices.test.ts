// A push's per-entity conflict choices (`conflicts`): keyed by a qualified name, a bundle file or an id, refused
// before any request when a key names no entity (or several) or a value is no policy; a group is never duplicated.
import * as assert from 'node:assert/strict';
import { choiceProblem, choicesById } from '../../src/platform/bundles/choices';

const GREET = '5c000000-0000-4000-8000-000000000001';
const OTHER = '5c000000-0000-4000-8000-000000000002';
const TWIN = '5c000000-0000-4000-8000-000000000003';
const GROUP = '5c000000-0000-4000-8000-000000000004';
const bundle = {
  manifest: {
    order: [
      { type: 'Script', id: GREET, file: 'Script/Scripts.Greet.json' },
      { type: 'Script', id: OTHER, file: 'Script/Scripts.Other.json' },
      { type: 'DataQuery', id: TWIN, file: 'DataQuery/Scripts.Other.json' },
      { type: 'UserGroup', id: GROUP, file: 'UserGroup/Chemists.json' },
    ],
  },
  entities: new Map([
    [GREET, { type: 'Script', json: { id: GREET, name: 'Greet', namespace: 'Scripts:' } }],
    [OTHER, { type: 'Script', json: { id: OTHER, name: 'Other', namespace: 'Scripts:' } }],
    [TWIN, { type: 'DataQuery', json: { id: TWIN, name: 'Other', namespace: 'Scripts:' } }],
    [GROUP, { type: 'UserGroup', json: { id: GROUP, name: 'Chemists' } }],
  ]),
};

describe('bundle push: per-entity conflict choices', () => {
  it('none given: none', () => {
    assert.deepEqual(choicesById(bundle, undefined), {});
  });

  it('a qualified name, a bundle file and an id each name one entity; the choices come back by bundle id', () => {
    assert.deepEqual(choicesById(bundle, { 'Scripts:Greet': 'adopt', 'DataQuery/Scripts.Other.json': 'duplicate', [OTHER]: 'skip', Chemists: 'fail' }), {
      [GREET]: 'adopt',
      [TWIN]: 'duplicate',
      [OTHER]: 'skip',
      [GROUP]: 'fail',
    });
  });

  it('a name two entities carry is refused with their files; an unknown name says how to name one', () => {
    assert.throws(
      () => choicesById(bundle, { 'Scripts:Other': 'skip' }),
      /"Scripts:Other", which 2 entities of the bundle carry \(Script\/Scripts\.Other\.json, DataQuery\/Scripts\.Other\.json\)/,
    );
    assert.throws(() => choicesById(bundle, { 'Scripts:Nope': 'skip' }), /"Scripts:Nope", which is no entity of the bundle: use a qualified name/);
  });

  it('a value that is no policy, and a list instead of an object, are refused', () => {
    assert.throws(() => choicesById(bundle, { 'Scripts:Greet': 'merge' }), /conflicts\["Scripts:Greet"\] must be one of skip, adopt, duplicate \(or fail\), not "merge"/);
    assert.throws(() => choicesById(bundle, ['Scripts:Greet']), /must be an object/);
  });

  it('a group is adopted or skipped, never duplicated (group names are unique on a server)', () => {
    assert.throws(() => choicesById(bundle, { Chemists: 'duplicate' }), /a group cannot be pushed as a duplicate/);
    assert.equal(choiceProblem('UserGroup', 'adopt'), undefined);
    assert.equal(choiceProblem('Script', 'duplicate'), undefined);
  });
});
