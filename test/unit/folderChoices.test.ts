// Link Folder's folder step: what it offers for the folders the server has listed so far, the folder
// named like the local one, and what is typed.
import * as assert from 'node:assert/strict';
import { folderChoices, folderProblem, normalFolder } from '../../src/sync/folderChoices';

const labels = (listed: string[], proposed: string, typed = '', done = true) => folderChoices(listed, proposed, typed, done, 'System:AppData').map((c) => c.label);

describe("Link Folder: the connector folder's choices", () => {
  it('puts the folder named like the local one first when the server has it, then the others, then the root', () => {
    assert.deepEqual(labels(['alpha', 'reports', 'alpha/q3'], 'reports'), [
      '$(folder) reports',
      '$(folder) alpha',
      '$(folder) alpha/q3',
      '$(root-folder) System:AppData (its root)',
    ]);
    const [first] = folderChoices(['reports'], 'reports', '', true, 'System:AppData');
    assert.deepEqual([first.path, first.description], ['reports', 'on the server, named like this folder']);
  });

  it('offers to create it when the server has none, saying the first sync makes it', () => {
    const [create, ...rest] = folderChoices(['alpha'], 'reports', '', true, 'System:AppData');
    assert.equal(create.label, "$(new-folder) Create 'reports'");
    assert.equal(create.path, 'reports');
    assert.match(create.description ?? '', /System:AppData has none yet: the first sync makes it/);
    assert.deepEqual(
      rest.map((c) => c.path),
      ['alpha', ''],
    );
    // While the folders still load, it may yet be found: said so.
    assert.match(folderChoices([], 'reports', '', false, 'System:AppData')[0].description ?? '', /unless the server has it/);
    // Found among the folders that came later: no longer "Create".
    assert.deepEqual(labels(['reports'], 'reports', '', false)[0], '$(folder) reports');
  });

  it('offers a typed path that is not listed, and says what is wrong with a bad one', () => {
    assert.deepEqual(labels(['alpha'], 'reports', 'projects\\q3/')[0], "$(new-folder) Create 'projects/q3'");
    assert.deepEqual(labels(['alpha'], 'reports', 'alpha').slice(0, 2), ["$(new-folder) Create 'reports'", '$(folder) alpha'], 'a listed folder typed is the listed one');
    const [problem] = folderChoices(['alpha'], 'reports', 'a/../b', true, 'System:AppData');
    assert.equal(problem.path, undefined, 'not a choice');
    assert.match(problem.label, /has an empty, "\." or "\.\." part/);
  });

  it('reads a typed path as the server does', () => {
    assert.equal(normalFolder('  /a\\b/ '), 'a/b');
    assert.equal(folderProblem(''), undefined, 'the root');
    assert.match(folderProblem('a//b') ?? '', /empty/);
  });
});
