// Publishing a package in the real host: datagrok.packages.publish with options returns what the server
// lists (release and debug), the published function runs on the server; bad options and a failing build
// are refused with the reason and nothing uploaded. The `datagrok` task provider offers build, publish and
// publish release per package.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { edit } from '../fixtures/packages/faults';
import { makePublishablePackage, PUBLISHED_FUNCTIONS } from '../fixtures/packages/publishable';
import { emulator, emulatorRequests, resetEmulator, signIn } from './support';

interface PublishResult {
  name: string;
  version: string;
  debug: boolean;
  functions: string[];
}

async function call(name: string, params: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${emulator.url}/public/v1/functions/${name}/call`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${emulator.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
  return res.json();
}

async function rejection(p: Thenable<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  assert.fail('the command succeeded');
}

describe('packagePublish: datagrok.packages.publish and the datagrok tasks', function () {
  this.timeout(120_000);
  let root = '';
  let dir = '';

  before(async () => {
    await resetEmulator();
    await signIn();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-publish-'));
    dir = makePublishablePackage(path.join(root, 'hello'), { version: '1.2.3' });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('publishes a release with options and returns what the server lists; the function runs there', async () => {
    const r = (await vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(dir), release: true })) as PublishResult;
    assert.deepEqual(r, { name: 'Hello', version: '1.2.3', debug: false, functions: [...PUBLISHED_FUNCTIONS].sort() });
    assert.equal(await call('Hello.add', { a: 20, b: 22 }), 42);
  });

  it('publishes a debug version to a named server (the debug flag sent, the version verified)', async () => {
    const r = (await vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(dir), server: emulator.url })) as PublishResult;
    assert.equal(r.debug, true);
    assert.equal(r.version, '1.2.3');
    const posts = (await emulatorRequests()).filter((q) => q.method === 'POST' && q.path === '/api/packages/dev/hello');
    assert.match((posts[posts.length - 1] as { query?: string }).query ?? '', /^debug=true&rebuild=false&dropDb=false$/);
  });

  it('refuses bad options and a folder that is not a package, with the reason', async () => {
    const notBool = await rejection(vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(dir), release: 'yes' }));
    assert.match(notBool.message, /The option "release" must be true or false/);
    const plain = path.join(root, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    const notPackage = await rejection(vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(plain) }));
    assert.match(notPackage.message, /is not a Datagrok package/);
  });

  it('a failing build: the reason said, its output kept, nothing uploaded', async () => {
    const broken = makePublishablePackage(path.join(root, 'broken'), { name: 'Broken' });
    edit(broken, 'package.json', (t) => t.replace('"build": "grok build"', `"build": "node -e \\"console.error('bundler: syntax error in src/package.ts'); process.exit(2)\\""`));
    const before = (await emulatorRequests()).length;
    const e = await rejection(vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(broken), build: true }));
    assert.match(e.message, /The build \(npm run build in .*\) failed with exit code 2: nothing was published/);
    const after = (await emulatorRequests()).slice(before);
    assert.deepEqual(
      after.filter((q) => q.path.includes('/packages/dev/')),
      [],
    );
  });

  describe('the datagrok tasks', () => {
    let pkg = '';
    before(() => {
      const ws = vscode.workspace.workspaceFolders?.[0];
      assert.ok(ws, 'the suite runs with a workspace folder');
      pkg = makePublishablePackage(path.join(ws.uri.fsPath, 'tasks-pkg'), { name: 'TaskPkg', version: '2.0.0' });
    });
    after(() => fs.rmSync(pkg, { recursive: true, force: true }));

    const tasksOf = async () => (await vscode.tasks.fetchTasks({ type: 'datagrok' })).filter((t) => t.definition.package === 'tasks-pkg');

    it('offers build, publish and publish release per package, with their problem matchers', async () => {
      const tasks = await tasksOf();
      assert.deepEqual(tasks.map((t) => t.name).sort(), ['build taskpkg', 'publish release taskpkg', 'publish taskpkg']);
      const build = tasks.find((t) => t.definition.action === 'build');
      assert.equal(build?.group?.id, vscode.TaskGroup.Build.id);
      assert.deepEqual(build.problemMatchers, ['$datagrok-build']);
      assert.deepEqual(tasks.find((t) => t.definition.action === 'publish')?.problemMatchers, ['$datagrok-check', '$datagrok-build']);
    });

    const runTask = async (task: vscode.Task) => {
      const ended = new Promise<number | undefined>((resolve) => {
        const sub = vscode.tasks.onDidEndTaskProcess((e) => {
          if (e.execution.task.name !== task.name) return;
          sub.dispose();
          resolve(e.exitCode);
        });
      });
      await vscode.tasks.executeTask(task);
      return ended;
    };

    it("the build task's errors point at the package's own files, though the package is in a subfolder", async () => {
      const scripts = fs.readFileSync(path.join(pkg, 'package.json'), 'utf8');
      // What tsc prints: the file relative to the package's folder (where the build runs).
      const json = JSON.parse(scripts) as { scripts: Record<string, string> };
      json.scripts.build = 'node failing-build.js';
      fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify(json, null, 2));
      edit(pkg, 'failing-build.js', () => "console.log('src/package.ts(3,5): error TS2322: Type string is not assignable to type number.');\nprocess.exit(2);\n");
      try {
        const task = (await tasksOf()).find((t) => t.definition.action === 'build');
        assert.ok(task);
        assert.equal(await runTask(task), 1);
        const file = vscode.Uri.file(path.join(pkg, 'src', 'package.ts'));
        let found: vscode.Diagnostic[] = [];
        for (let i = 0; i < 100 && found.length === 0; i++) {
          found = vscode.languages.getDiagnostics(file).filter((d) => /TS2322/.test(String(d.code)) || /not assignable/.test(d.message));
          if (found.length === 0) await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal(found.length, 1, `the problem is on ${file.fsPath}: ${JSON.stringify(vscode.languages.getDiagnostics().map(([u, d]) => [u.fsPath, d.length]))}`);
        assert.equal(found[0].range.start.line, 2);
        assert.equal(found[0].severity, vscode.DiagnosticSeverity.Error);
      } finally {
        fs.writeFileSync(path.join(pkg, 'package.json'), scripts);
        fs.rmSync(path.join(pkg, 'failing-build.js'));
      }
    });

    it('the publish release task checks, publishes and verifies (exit code 0)', async () => {
      const task = (await tasksOf()).find((t) => t.definition.action === 'publishRelease');
      assert.ok(task);
      assert.equal(await runTask(task), 0);
      assert.equal(await call('TaskPkg.add', { a: 1, b: 1 }), 2);
    });

    it('an error of grok check stops the publish task (exit code 1), nothing uploaded', async () => {
      edit(pkg, 'src/deep.ts', () => "import { DataFrame } from 'datagrok-api/src/dataframe';\nexport const d = DataFrame;\n");
      const task = (await tasksOf()).find((t) => t.definition.action === 'publish');
      assert.ok(task);
      const before = (await emulatorRequests()).length;
      assert.equal(await runTask(task), 1);
      assert.deepEqual(
        (await emulatorRequests()).slice(before).filter((q) => q.path.includes('/packages/dev/')),
        [],
      );
    });
  });
});
