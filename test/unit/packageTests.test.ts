// Package tests, the pure parts (src/platform/packages/tests/): discovery in test sources, the grok test
// command line and which tests a profile reaches, the live output of a real `grok test --node-only` run
// (captured from datagrok-tools 6.7.5 against the emulator, test/fixtures/package-tests/captured/) and
// the lines its source prints for the browser pass, the CSV report, and failures mapped to source lines.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a test name that is a template is kept as written
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { debugBrowser } from '../../src/packages/tests/debugBrowser';
import { type DiscoveredCategory, discoverTests } from '../../src/platform/packages/tests/discovery';
import { bundlesInStack, failureLocation } from '../../src/platform/packages/tests/failureLocation';
import { grokTestArgs, testsReached } from '../../src/platform/packages/tests/grokTest';
import { failureMessage, parseReport } from '../../src/platform/packages/tests/report';
import { type StreamEvent, splitterFor, TestStream } from '../../src/platform/packages/tests/stream';

const FIXTURES = path.join(__dirname, '../../../test/fixtures/package-tests');
const read = (...p: string[]) => fs.readFileSync(path.join(FIXTURES, ...p), 'utf8');
const names = (cs: DiscoveredCategory[]) => cs.map((c) => [c.name, c.tests.map((t) => t.name)]);

describe('package tests: discovery', () => {
  it('finds the fixture package categories and tests, a loop over literals expanded, with ranges', () => {
    const cs = discoverTests(read('node-tests/src/tests/arithmetic.ts'));
    assert.deepEqual(names(cs), [
      ['Arithmetic', ['adds', 'multiplies wrongly', 'waits for the server', 'squares 1', 'squares 2']],
      ['Arithmetic: nested', ['subtracts']],
    ]);
    const [adds, , skipped, square1] = cs[0].tests;
    assert.deepEqual(adds.span.start, { line: 3, character: 2 });
    assert.deepEqual(adds.span.end, { line: 5, character: 20 });
    assert.deepEqual(adds.options, { node: true });
    assert.deepEqual(skipped.options, { node: true, skipReason: 'GROK-0000: not on this stand' });
    assert.equal(square1.span.start.line, 16);
    assert.equal(cs[0].span.start.line, 2);
  });

  it('reads category options after a long body, comments in options, conditions and computed names', () => {
    const [c] = discoverTests(read('discovery/category-options.ts'));
    assert.equal(c.name, 'Server: round trips');
    assert.deepEqual(c.options, { node: true });
    assert.deepEqual(
      c.tests.map((t) => [t.name, t.options, t.dynamic ?? false]),
      [
        ['Scalars', {}, false],
        [`Strings with "quotes" and 'apostrophes'`, {}, false],
        ['source: ${name}', {}, true],
        ['only in a browser', {}, false],
        ['in the browser only', { node: false }, false],
      ],
    );
  });

  it('follows the library: a nested category takes the tests after it; comments and strings are not calls', () => {
    const cs = discoverTests(read('discovery/nested.ts'));
    assert.deepEqual(names(cs), [
      ['Viewers', ['scatter plot', 'grid 10 rows', 'grid 1000 rows', 'histogram ${size}']],
      ['Viewers: Legend', ['shows', 'after the nested one']],
    ]);
    assert.equal(cs[0].tests[1].options.skipReason, 'GROK-1: slow');
    assert.equal(cs[0].tests[3].dynamic, true);
  });

  it('finds nothing in a file without tests, and survives unfinished text', () => {
    assert.deepEqual(discoverTests('export const x = 1;'), []);
    assert.deepEqual(names(discoverTests("category('Half', () => {\n  test('typing', async () => {")), [['Half', ['typing']]]);
  });
});

describe('package tests: run profiles and the command line', () => {
  const cs = discoverTests(read('node-tests/src/tests/arithmetic.ts')).concat(discoverTests(read('node-tests/src/tests/browser.ts')));

  it('runs a test, a category (prefix, as grok matches it) or the package, in the Node pass or all', () => {
    assert.deepEqual(testsReached(cs, { category: 'Arithmetic', test: 'adds', nodeOnly: true }), [{ category: 'Arithmetic', test: 'adds' }]);
    assert.deepEqual(
      testsReached(cs, { category: 'arithmetic', nodeOnly: true }).map((t) => t.test),
      ['adds', 'multiplies wrongly', 'waits for the server', 'squares 1', 'squares 2', 'subtracts'],
    );
    assert.deepEqual(testsReached(cs, { category: 'Browser', nodeOnly: true }), []);
    assert.deepEqual(testsReached(cs, { category: 'Browser' }), [{ category: 'Browser', test: 'opens a table view' }]);
    assert.equal(testsReached(cs, {}).length, 7);
    const realShapes = discoverTests(read('discovery/category-options.ts'));
    assert.deepEqual(
      testsReached(realShapes, { nodeOnly: true }).map((t) => t.test),
      ['Scalars', `Strings with "quotes" and 'apostrophes'`, 'source: ${name}', 'only in a browser'],
    );
  });

  it('builds the grok test arguments', () => {
    assert.deepEqual(grokTestArgs({ host: 'dev', category: 'Arithmetic: nested', test: 'subtracts', nodeOnly: true, skipPublish: true, csv: '/tmp/r.csv' }), [
      'test',
      '--host=dev',
      '--category=Arithmetic: nested',
      '--test=subtracts',
      '--node-only',
      '--skip-build',
      '--skip-publish',
      '--csv=/tmp/r.csv',
    ]);
    assert.deepEqual(grokTestArgs({ host: 'dev', debug: true, csv: 'r.csv' }), ['test', '--host=dev', '--gui', '--debug', '--csv=r.csv']);
  });
});

function events(chunks: string[], categories: string[]): StreamEvent[] {
  const seen: StreamEvent[] = [];
  const stream = new TestStream((e) => seen.push(e), splitterFor(categories));
  for (const c of chunks) stream.write(c);
  stream.finish();
  return seen;
}

describe('package tests: the live output', () => {
  it('reads a real grok test --node-only run, chunk by chunk', () => {
    const out = read('captured/node-only.stdout');
    const cats = ['Arithmetic', 'Arithmetic: nested'];
    const whole = events([out], cats);
    // The same events whatever the chunks: one byte at a time.
    assert.deepEqual(events([...out], cats), whole);
    assert.deepEqual(
      whole.filter((e) => e.kind !== 'started'),
      [
        { kind: 'skipped', category: 'Arithmetic', test: 'waits for the server' },
        { kind: 'failed', category: 'Arithmetic', test: 'multiplies wrongly', message: 'Expected "43", got "42"' },
        { kind: 'passed', category: 'Arithmetic', test: 'adds' },
        { kind: 'passed', category: 'Arithmetic', test: 'squares 1' },
        { kind: 'passed', category: 'Arithmetic', test: 'squares 2' },
        { kind: 'passed', category: 'Arithmetic: nested', test: 'subtracts' },
      ],
    );
    assert.deepEqual(
      whole.filter((e) => e.kind === 'started').map((e) => (e.kind === 'started' ? `${e.category}/${e.test}` : '')),
      ['Arithmetic/adds', 'Arithmetic/multiplies wrongly', 'Arithmetic/squares 1', 'Arithmetic/squares 2', 'Arithmetic: nested/subtracts'],
    );
  });

  it('reads the line protocol the test runner prints (@datagrok-libraries/test 1.4.1 runTests)', () => {
    const lines = [
      'Package testing: Started {{Viewers}} skipped {{1}}',
      'Package testing: Started {{Viewers}} {{scatter plot}}',
      'Package testing: Finished {{Viewers}} {{scatter plot}} with {{success}} for 812 ms',
      'Package testing: Skipped {{Viewers}} {{grid 10 rows}}',
      'Package testing: Started {{Viewers}} {{histogram 10}}',
      'Package testing: Finished {{Viewers}} {{histogram 10}} with {{error}} for 33 ms',
      'Package testing: Result for {{Viewers}} {{histogram 10}}: Error: Expected "1", got "2"',
      'Package testing: Category before() {{Legend}} failed',
      'Package testing: Result for {{Legend}} before: Error: no table',
    ];
    assert.deepEqual(
      events([lines.join('\n')], ['Viewers']).filter((e) => e.kind !== 'started'),
      [
        { kind: 'passed', category: 'Viewers', test: 'scatter plot', ms: 812 },
        { kind: 'skipped', category: 'Viewers', test: 'grid 10 rows' },
        { kind: 'failed', category: 'Viewers', test: 'histogram 10', ms: 33, message: 'Error: Expected "1", got "2"' },
        { kind: 'categoryFailed', category: 'Legend', phase: 'before' },
        { kind: 'categoryFailed', category: 'Legend', phase: 'before', message: 'Error: no table' },
      ],
    );
  });

  it("reads the browser pass as the CLI renders it (TestProgressReporter's summary, before() failing, publishing)", () => {
    const out = [
      'Building and publishing Viewers...',
      ' success!\n',
      'Viewers: scatter plot...\r\x1b[K',
      'Viewers: grid...\r\x1b[K',
      '\x1b[31m❌ Viewers\x1b[31m (\x1b[32m1 passed\x1b[31m)\x1b[0m\n',
      '  \x1b[31m❌ before\x1b[0m\n',
      '    \x1b[31mError: no table\x1b[0m\n',
      '    \x1b[33mTo run this category separately use --category "Viewers"\x1b[0m\n',
      '  \x1b[31m❌ grid\x1b[0m\n',
      '    \x1b[33mTo run this test separately use --category "Viewers" --test "grid"\x1b[0m\n',
      'Passed tests: 1\n',
    ];
    assert.deepEqual(
      events(out, ['Viewers']).filter((e) => e.kind !== 'started'),
      [
        { kind: 'published' },
        { kind: 'categoryFailed', category: 'Viewers', phase: 'before' },
        { kind: 'failed', category: 'Viewers', test: 'grid' },
        { kind: 'passed', category: 'Viewers', test: 'scatter plot' },
      ],
    );
  });
});

describe('package tests: the report and failure locations', () => {
  const rows = parseReport(read('captured/node-only.report.csv'));

  it('reads test-report.csv of the real run', () => {
    assert.deepEqual(
      rows.map((r) => [r.category, r.name, r.outcome, r.ms]),
      [
        ['Arithmetic', 'adds', 'passed', 13],
        ['Arithmetic', 'multiplies wrongly', 'failed', 8],
        ['Arithmetic', 'waits for the server', 'skipped', 0],
        ['Arithmetic', 'squares 1', 'passed', 0],
        ['Arithmetic', 'squares 2', 'passed', 0],
        ['Arithmetic: nested', 'subtracts', 'passed', 0],
      ],
    );
    assert.equal(failureMessage(rows[1].result), "Error: Expected '43', got '42'");
    assert.equal(rows[2].result, 'GROK-0000: not on this stand');
  });

  it("maps the failure's stack through the package's source map to the line in src/tests", () => {
    const stack = rows[1].result;
    assert.deepEqual(bundlesInStack(stack), ['dist/package-test.js']);
    const maps = new Map([['dist/package-test.js', read('node-tests/dist/package-test.js.map')]]);
    // The first frames are in the test library (outside the package): the test's own line is the place.
    assert.deepEqual(failureLocation(stack, maps), { file: 'src/tests/arithmetic.ts', line: 8, character: 4 });
    assert.equal(failureLocation(stack, new Map()), undefined);
    assert.equal(failureLocation('Error: x\n    at f (webpack://p/./src/a.ts:1:1)', maps), undefined);
  });
});

describe('package tests: the debug browser', () => {
  it("starts the browser through a script that adds the debugging port after puppeteer's arguments", async function () {
    if (process.platform === 'win32') this.skip();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'debug-browser-'));
    try {
      // The "browser" is node itself: it prints the arguments the script hands it.
      const grok = path.join(__dirname, '../../../node_modules/.bin/grok');
      const debug = await debugBrowser(grok, '/pkg', home, { ...process.env, PUPPETEER_EXECUTABLE_PATH: process.execPath });
      assert.equal(debug.attach.webRoot, '/pkg');
      const argv = JSON.parse(
        execFileSync(debug.env.PUPPETEER_EXECUTABLE_PATH, ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '--', '--remote-debugging-port=0']).toString(),
      );
      assert.deepEqual(argv, ['--remote-debugging-port=0', `--remote-debugging-port=${debug.attach.port}`]);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
