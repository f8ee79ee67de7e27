// dist/extension.js and dist/api.js each hold a copy of src/api/errors.ts: an error made by one copy
// must be a DatagrokError to the other (the views' and sign-in's checks run on errors from the client).
import * as assert from 'node:assert/strict';
import * as errors from '../../src/api/errors';

/** A second, separate instance of the errors module, as the other bundle has. */
function otherCopy(): typeof errors {
  const file = require.resolve('../../src/api/errors');
  const cached = require.cache[file];
  delete require.cache[file];
  try {
    return require(file) as typeof errors;
  } finally {
    require.cache[file] = cached;
  }
}

describe('DatagrokError across bundle copies', () => {
  it('is recognised by instanceof and isDatagrokError whichever copy made it', () => {
    const other = otherCopy();
    assert.notEqual(other.DatagrokError, errors.DatagrokError);
    const made = new other.DatagrokError('unauthorized', 'not signed in', { status: 401 });
    assert.ok(made instanceof errors.DatagrokError);
    assert.ok(errors.isDatagrokError(made, 'unauthorized'));
    assert.ok(errors.badInput('x') instanceof other.DatagrokError);
    assert.ok(!(new Error('plain') instanceof errors.DatagrokError));
    assert.ok(!((null as unknown) instanceof errors.DatagrokError));
    assert.equal(Object.keys(made).includes('kind'), true);
    assert.ok(!JSON.stringify(made).includes('datagrok.DatagrokError'));
  });
});
