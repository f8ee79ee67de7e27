// A Datagrok notebook out of the editor and a plot in it, in the real host against the emulator: Export as
// Jupyter notebook writes a valid nbformat 4.5 file without the key, whose code cells, run by python3 with
// the stand-in of Datagrok's Python client (test/fixtures/datagrok-api-python) against the emulator, give
// the notebook's own results; an existing file is replaced only when asked; a cell of every kind is kept.
// A Python cell drawing with matplotlib shows its `graphics` output as a PNG image.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clearEmulatorRequests, emulator, emulatorRequests, resetEmulator, signIn } from './support';
import { CHAIN } from './notebookSupport';

interface CellResult {
  index: number;
  outcome: string;
  outputs: { name: string; type: string; value?: unknown }[];
  message?: string;
}

const STAND_IN = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'datagrok-api-python');

/** Validates the .ipynb with nbformat and runs its code cells in order, in one namespace; prints the named variables. */
const RUN_NOTEBOOK = `
import json, sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
ns = {"__name__": "__main__"}
for cell in nb.cells:
    if cell.cell_type == "code":
        exec(compile(cell.source, cell.id, "exec"), ns)
print("\\u0000RESULT" + json.dumps({"count": int(ns["count"]), "top": ns["top"].to_dict(orient="list")}))
`;

/** Validates the .ipynb with nbformat and parses each code cell as Python. */
const CHECK_PYTHON = `
import ast, sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
for cell in nb.cells:
    if cell.cell_type == "code":
        ast.parse(cell.source, cell.id)
`;

/** A python3 with pandas and nbformat (the emulator's own choice first). */
function python(): string {
  const candidates = [process.env.DATAGROK_EMULATOR_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c);
  const found = candidates.find((c) => spawnSync(c, ['-c', 'import pandas, nbformat'], { stdio: 'ignore', timeout: 30_000 }).status === 0);
  assert.ok(found, 'no python3 with pandas and nbformat here (Debian: python3-pandas python3-nbformat)');
  return found;
}

let dir = '';
const write = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return vscode.Uri.file(path.join(dir, name));
};
const run = (uri: vscode.Uri) => vscode.commands.executeCommand<CellResult[]>('datagrok.notebooks.run', { uri });
const exportJupyter = (options: Record<string, unknown>) => Promise.resolve(vscode.commands.executeCommand<vscode.Uri>('datagrok.notebooks.exportJupyter', options));

describe('notebook: export as Jupyter, plots as images', function () {
  this.timeout(180_000);

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-jupyter-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("exports the chain as a .ipynb whose Python, run against the server, gives the notebook's results; no key in it", async () => {
    const uri = write('chain.dgnb', CHAIN);
    const results = await run(uri);
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['skipped', 'succeeded', 'succeeded', 'succeeded'],
      JSON.stringify(results),
    );
    const { variables } = await vscode.commands.executeCommand<{ variables: { name: string; rows?: number; columns?: number }[] }>('datagrok.notebooks.showVariables', { uri });
    const target = await exportJupyter({ uri });
    assert.equal(target.fsPath, path.join(dir, 'chain.ipynb'), 'beside the notebook by default');
    const text = fs.readFileSync(target.fsPath, 'utf8');
    assert.ok(!text.includes(emulator.key), 'the key is not in the file');
    assert.match(text, /DATAGROK_API_KEY/);

    await clearEmulatorRequests();
    const ran = spawnSync(python(), ['-c', RUN_NOTEBOOK, target.fsPath], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, DATAGROK_API_URL: emulator.url, DATAGROK_API_KEY: emulator.key, PYTHONPATH: STAND_IN, MPLBACKEND: 'Agg' },
    });
    const marker = ran.stdout.lastIndexOf('\u0000RESULT');
    assert.ok(marker >= 0, `the notebook's Python failed: ${ran.stderr.slice(-2000)}`);
    const jupyter = JSON.parse(ran.stdout.slice(marker + '\u0000RESULT'.length)) as { count: number; top: Record<string, unknown[]> };
    assert.equal(jupyter.count, results[3].outputs[0].value, 'the final value is the notebook’s');
    const top = variables.find((v) => v.name === 'top');
    assert.deepEqual([Object.values(jupyter.top)[0].length, Object.keys(jupyter.top).length], [top?.rows, top?.columns], 'the Python cell made the same table');

    // The query ran on the server through the client, the local table went up once, nothing was left behind.
    const requests = await emulatorRequests();
    const seen = (method: string, pattern: RegExp) => requests.filter((r) => r.method === method && pattern.test(r.path));
    assert.equal(seen('GET', /\/public\/v1\/connections\/Samples\.Northwind$/).length, 1);
    assert.equal(seen('POST', /\/public\/v1\/functions$/).length, 1);
    assert.equal(seen('POST', /\/public\/v1\/functions\/[^/]+\/call$/).length, 2);
    assert.equal(seen('POST', /\/public\/v1\/tables\/Notebook_chain_top$/).length, 1, 'the DataFrame the call takes goes up once');
    assert.equal(seen('DELETE', /\/connectors\/queries\//).length, 1, 'the temporary query is deleted');
    assert.ok(
      requests.every((r) => r.authorized),
      'every request carries the key',
    );
  });

  it('replaces an existing .ipynb only when asked, and refuses a target that is not one, writing nothing', async () => {
    const uri = vscode.Uri.file(path.join(dir, 'chain.dgnb'));
    const target = path.join(dir, 'chain.ipynb');
    fs.writeFileSync(target, 'mine');
    await assert.rejects(exportJupyter({ uri }), /chain\.ipynb exists already: pass overwrite: true to replace it/);
    assert.equal(fs.readFileSync(target, 'utf8'), 'mine');
    await assert.rejects(exportJupyter({ uri, target: vscode.Uri.file(path.join(dir, 'chain.txt')) }), /is not a \.ipynb file/);
    assert.ok(!fs.existsSync(path.join(dir, 'chain.txt')));
    await assert.rejects(exportJupyter({ uri, overwrite: 'yes' }), /"overwrite" must be true or false/);
    const replaced = await exportJupyter({ uri, overwrite: true });
    assert.equal(JSON.parse(fs.readFileSync(replaced.fsPath, 'utf8')).nbformat, 4);
    const elsewhere = await exportJupyter({ uri, target: vscode.Uri.file(path.join(dir, 'out', 'copy.ipynb')) });
    assert.ok(fs.existsSync(elsewhere.fsPath));
  });

  it('exports a notebook with a cell of every kind without loss', async () => {
    const cells: [string, string][] = [
      ['markdown', '# Every kind\n\nof cell'],
      ['sql', '--connection: Samples:Northwind\n--output: dataframe customers\nselect * from customers'],
      ['python', '#input: dataframe customers\n#output: int n\nn = len(customers)'],
      ['r', '#output: int m\nm <- 1'],
      ['javascript', '//output: int k\nk = 1;'],
      ['datagrok-call', 'Demo:Add(a: n, b: 2)'],
      ['json', '{"$function": "Demo:RowCount", "table": "customers"}'],
      ['datagrok-call', 'Demo:Add(a: 1'],
    ];
    const uri = write('every.dgnb', ['%% datagrok-notebook', ...cells.flatMap(([language, text]) => ['', `%% ${language}`, text])].join('\n'));
    const target = await exportJupyter({ uri });
    const ipynb = JSON.parse(fs.readFileSync(target.fsPath, 'utf8')) as {
      cells: { cell_type: string; source: string[]; metadata: { datagrok?: { language: string; text: string } } }[];
    };
    assert.equal(ipynb.cells.length, cells.length + 1, 'the setup cell and one cell for each');
    cells.forEach(([language, text], i) => {
      const cell = ipynb.cells[i + 1];
      assert.deepEqual(cell.metadata.datagrok, { language, text }, `cell ${i + 1}`);
    });
    const source = (i: number) => ipynb.cells[i + 1].source.join('');
    assert.equal(ipynb.cells[1].cell_type, 'markdown');
    assert.match(source(4), /^# Cell 5 \(javascript\) is not run here: the Python client saves scripts in .* not javascript/);
    assert.match(source(5), /^sum = grok\.functions\.call\("Demo:Add", \{"a": table_ref\("n", n\), "b": 2\}\)$/m, "the function's outputs named from the server");
    assert.match(source(7), /^# Cell 8 \(datagrok-call\) is not run here: .*closing/);
    // A valid notebook whose every code cell is Python (not run: the R cell needs a server that runs R).
    const checked = spawnSync(python(), ['-c', CHECK_PYTHON, target.fsPath], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(checked.status, 0, checked.stderr.slice(-2000));
  });

  it('shows a plot a Python cell draws as a PNG image', async () => {
    const uri = write(
      'plot.dgnb',
      [
        '%% datagrok-notebook',
        '',
        '%% python',
        '#output: graphics plot',
        'import matplotlib.pyplot as plt',
        'fig, ax = plt.subplots()',
        'ax.plot([1, 2, 3], [1, 4, 9])',
        'plot = fig',
        '',
      ].join('\n'),
    );
    const [result] = await run(uri);
    assert.equal(result.outcome, 'succeeded', result.message);
    const notebook = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString())!;
    const items = notebook.cellAt(0).outputs.flatMap((o) => o.items);
    const image = items.find((i) => i.mime === 'image/png');
    assert.ok(image, `an image/png output: ${items.map((i) => i.mime).join(', ')}`);
    const bytes = Buffer.from(image.data);
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
    assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
    assert.equal(bytes.subarray(bytes.length - 8, bytes.length - 4).toString('latin1'), 'IEND', 'a whole PNG');
    assert.ok(bytes.readUInt32BE(16) > 100 && bytes.readUInt32BE(20) > 100, 'a plot-sized image');
  });
});
