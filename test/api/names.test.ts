import * as assert from 'node:assert/strict';
import { DatagrokError } from '../../src/api/errors';
import { filePathSegments, nameListSegment, nameSegment, normalizeApiKey, normalizeBaseUrl } from '../../src/api/names';

function badInput(fn: () => unknown): DatagrokError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof DatagrokError, `expected a DatagrokError, got ${err}`);
    assert.equal(err.kind, 'badInput');
    return err;
  }
  assert.fail('expected a badInput error');
}

describe('names', () => {
  it('replaces every colon, then percent-encodes the segment', () => {
    assert.equal(nameSegment('Admin:Demo:Demo'), 'Admin.Demo.Demo');
    assert.equal(nameSegment('My Project:sales 100%'), 'My%20Project.sales%20100%25');
    assert.equal(nameSegment('Ünï:日本'), encodeURIComponent('Ünï.日本'));
    assert.equal(nameSegment('a/b'), 'a%2Fb');
  });

  it('rejects empty, ".", ".." names, also when colons turn into dots', () => {
    for (const bad of ['', '  ', '.', '..', ':', '::']) badInput(() => nameSegment(bad));
  });

  it('encodes a file path segment by segment', () => {
    assert.equal(filePathSegments('geo/cities.csv'), 'geo/cities.csv');
    assert.equal(filePathSegments('/my dir/a%b#c?.csv'), 'my%20dir/a%25b%23c%3F.csv');
    assert.equal(filePathSegments('Ordner/Äpfel:1.csv'), `Ordner/${encodeURIComponent('Äpfel:1.csv')}`);
    assert.equal(filePathSegments('', true), '');
  });

  it('rejects empty, "." and ".." path segments with a clear message', () => {
    for (const bad of ['', 'a//b', '../etc/passwd', 'a/./b', 'a/..', '..']) {
      const err = badInput(() => filePathSegments(bad));
      assert.match(err.message, /Invalid file path/);
    }
  });

  it('keeps the commas of a list literal and encodes each item', () => {
    assert.equal(nameListSegment(['Demo:a', 'b,c', 'x y'], 'table ID'), 'Demo.a,b%2Cc,x%20y');
    badInput(() => nameListSegment([], 'table ID'));
    badInput(() => nameListSegment(['ok', '..'], 'table ID'));
  });

  it('accepts keys pasted with or without "Bearer "', () => {
    assert.equal(normalizeApiKey('  abc  '), 'abc');
    assert.equal(normalizeApiKey('Bearer abc\n'), 'abc');
    assert.equal(normalizeApiKey('bearer   abc'), 'abc');
  });

  it('normalizeBaseUrl wants http(s) and /api, and says what to type', () => {
    assert.equal(normalizeBaseUrl(' https://public.datagrok.ai/api/ '), 'https://public.datagrok.ai/api');
    assert.equal(normalizeBaseUrl('http://127.0.0.1:8080/api'), 'http://127.0.0.1:8080/api');
    assert.match(badInput(() => normalizeBaseUrl('https://public.datagrok.ai')).message, /https:\/\/public\.datagrok\.ai\/api/);
    assert.match(badInput(() => normalizeBaseUrl('ftp://x/api')).message, /http:\/\/ or https:\/\//);
    badInput(() => normalizeBaseUrl('not a url'));
    badInput(() => normalizeBaseUrl(''));
  });

  it('normalizeBaseUrl never repeats a key pasted into the path: scheme and host only', () => {
    const key = 'f3a9c2d1e8b7a6f5e4d3c2b1a0f9e8d7';
    for (const typed of [`https://dg.example.com/${key}`, `https://dg.example.com/${key}/`, `https://dg.example.com:8443/datagrok/${key}`]) {
      const message = badInput(() => normalizeBaseUrl(typed)).message;
      assert.ok(!message.includes(key), `the key is echoed: ${message}`);
      assert.ok(!message.includes(key.slice(0, 8)), `part of the key is echoed: ${message}`);
      assert.match(message, /must end with \/api: type https:\/\/dg\.example\.com(:8443)?\/api/);
    }
  });
});
