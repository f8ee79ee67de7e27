import * as assert from 'node:assert/strict';
import { isDatagrokError } from '../../src/api/errors';
import { baseName, checkConnector, checkPath, displayPath, parentPath, platformName, serverAuthority } from '../../src/files/connectorPaths';

const badInput = (message: RegExp) => (e: unknown) => isDatagrokError(e, 'badInput') && message.test(e.message);

describe('connector names and paths', () => {
  it('takes a connector in platform or REST form and gives the REST form', () => {
    assert.equal(checkConnector('System:DemoFiles'), 'System.DemoFiles');
    assert.equal(checkConnector(' System.DemoFiles '), 'System.DemoFiles');
    assert.equal(platformName('System.DemoFiles'), 'System:DemoFiles');
    assert.throws(() => checkConnector(''), badInput(/Name the connector/));
    assert.throws(() => checkConnector('System:Demo/Files'), badInput(/is not a connector name/));
    assert.throws(() => checkConnector('System::DemoFiles'), badInput(/is not a connector name/));
  });

  it('takes a path within the connector, refusing "..", "." and empty parts', () => {
    assert.equal(checkPath('/geo/cities.csv/'), 'geo/cities.csv');
    assert.equal(checkPath('', true), '');
    assert.throws(() => checkPath(''), badInput(/path is empty/));
    assert.throws(() => checkPath('geo//cities.csv'), badInput(/empty part/));
    assert.throws(() => checkPath('geo/../../etc'), badInput(/contains "\.\."/));
    assert.throws(() => checkPath(3), badInput(/Give the path/));
  });

  it('names files as people and the platform do', () => {
    assert.equal(displayPath({ connector: 'System.DemoFiles', path: 'geo/cities.csv' }), 'System:DemoFiles/geo/cities.csv');
    assert.equal(displayPath({ connector: 'System.DemoFiles', path: '' }), 'System:DemoFiles');
    assert.equal(parentPath('geo/deep/x.csv'), 'geo/deep');
    assert.equal(parentPath('x.csv'), '');
    assert.equal(baseName('geo/x.csv'), 'x.csv');
    assert.equal(serverAuthority('https://Example.COM:8443/api'), 'example.com:8443');
  });
});
