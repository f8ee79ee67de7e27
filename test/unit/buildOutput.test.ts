// A build's output for the problem matcher: the files its errors name made absolute against the package's
// folder (a contributed matcher only knows the workspace folder), other lines as they came, lines split
// across chunks held until whole.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { absoluteProblemLine, BuildOutputPaths } from '../../src/platform/packages/publish/buildOutput';

const folder = path.resolve('/ws/packages/Chem');

describe('build output for the problem matcher', () => {
  it("makes the file of tsc's and webpack's problem lines absolute", () => {
    assert.equal(absoluteProblemLine('src/package.ts(3,5): error TS2322: Bad.', folder), `${path.join(folder, 'src/package.ts')}(3,5): error TS2322: Bad.`);
    assert.equal(absoluteProblemLine('ERROR in ./src/a.tsx:10:2 - error TS1005: x', folder), `ERROR in ${path.join(folder, 'src/a.tsx')}:10:2 - error TS1005: x`);
    assert.equal(absoluteProblemLine('\x1b[31msrc/b.js:1:1: warning: y\x1b[0m', folder), `${path.join(folder, 'src/b.js')}:1:1: warning: y`);
  });

  it('leaves other lines, and files already absolute, alone', () => {
    assert.equal(absoluteProblemLine('webpack 5.90 compiled successfully', folder), undefined);
    assert.equal(absoluteProblemLine(`${path.join(folder, 'src/x.ts')}(1,1): error TS1: z`, folder), undefined);
  });

  it('passes chunks on, a split line once whole, CRLF kept', () => {
    const out: string[] = [];
    const paths = new BuildOutputPaths(folder, (t) => out.push(t));
    paths.push('> build\r\nsrc/pack');
    paths.push('age.ts(1,2): error TS1: e\r\ndone');
    paths.end();
    assert.equal(out.join(''), `> build\r\n${path.join(folder, 'src/package.ts')}(1,2): error TS1: e\r\ndone`);
  });
});
