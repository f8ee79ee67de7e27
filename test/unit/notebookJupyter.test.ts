// A Datagrok notebook as a Jupyter notebook: nbformat 4.5 with a Python kernel, the client built from the
// environment, each kind of cell in Python (or as comments that say why), nothing of a cell lost.
import * as assert from 'node:assert/strict';
import { parseCallCell } from '../../src/platform/notebook/cells';
import { type ExportCell, jupyterText, toJupyter } from '../../src/platform/notebook/jupyter';
import { pythonLiteral, pythonText } from '../../src/platform/notebook/jupyterPython';

const OPTIONS = { fileName: 'chain.dgnb', tablePrefix: 'Notebook_chain_' };
const source = (cell: { source: string[] }) => cell.source.join('');

const CHAIN: ExportCell[] = [
  { language: 'markdown', text: '# Customers by country' },
  { language: 'sql', text: '--connection: Samples:Northwind\n--output: dataframe byCountry\nselect country, count(*) as n from customers group by country' },
  { language: 'python', text: '#input: dataframe byCountry\n#output: dataframe top\ntop = byCountry.sort_values("n", ascending=False).head(2)' },
  { language: 'datagrok-call', text: 'Demo:RowCount(table: top)', call: parseCallCell('Demo:RowCount(table: top)'), outputs: [{ name: 'count', type: 'int' }] },
];

describe('notebook: export as Jupyter', () => {
  it('writes nbformat 4.5 with a python3 kernel, a setup cell reading the environment, and an id on every cell', () => {
    const { notebook } = toJupyter(CHAIN, OPTIONS);
    assert.equal(notebook.nbformat, 4);
    assert.equal(notebook.nbformat_minor, 5);
    assert.deepEqual(notebook.metadata.kernelspec, { name: 'python3', display_name: 'Python 3', language: 'python' });
    const ids = notebook.cells.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.every((id) => /^[a-zA-Z0-9-_]{1,64}$/.test(id)));
    const setup = source(notebook.cells[0]);
    assert.match(setup, /from datagrok_api import DatagrokClient/);
    assert.match(setup, /os\.environ\["DATAGROK_API_URL"\]/);
    assert.match(setup, /os\.environ\["DATAGROK_API_KEY"\]/);
    assert.ok(notebook.cells.every((c) => c.cell_type === 'markdown' || (Array.isArray(c.outputs) && c.execution_count === null)));
    assert.ok(jupyterText(notebook).endsWith('}\n'));
  });

  it('keeps Markdown, runs Python here, and a query and a call on the server, tables by reference', () => {
    const { notebook, cells } = toJupyter(CHAIN, OPTIONS);
    assert.deepEqual(
      cells.map((c) => c.as),
      ['markdown', 'server', 'python', 'server'],
    );
    assert.equal(notebook.cells[1].cell_type, 'markdown');
    assert.equal(source(notebook.cells[1]), '# Customers by country');
    const query = source(notebook.cells[2]);
    assert.match(query, /^byCountry = as_frame\(run_on_server\("""--connection: Samples:Northwind\n--output: dataframe byCountry\nselect country/m);
    assert.match(query, /, \{\}, connection="Samples:Northwind"\)\)$/);
    assert.ok(source(notebook.cells[3]).endsWith(CHAIN[2].text), 'the Python cell as written');
    assert.match(source(notebook.cells[4]), /^count = grok\.functions\.call\("Demo:RowCount", \{"table": table_ref\("top", top\)\}\)$/m);
  });

  it('passes a table a server cell takes by reference, and gives an input no cell made its initial value', () => {
    const cells: ExportCell[] = [
      CHAIN[1],
      { language: 'r', text: '#name: Scale\n#input: dataframe byCountry\n#input: double factor = 2\n#output: dataframe scaled\nscaled <- byCountry' },
      { language: 'python', text: '#input: int limit = 10\n#input: string label = "top"\n#output: int n\nn = limit' },
    ];
    const { notebook } = toJupyter(cells, OPTIONS);
    const r = source(notebook.cells[2]);
    assert.match(
      r,
      /^scaled = as_frame\(run_on_server\("""#input: dataframe byCountry\n[\s\S]*scaled <- byCountry""", \{"byCountry": table_ref\("byCountry", byCountry\)\}, language="r"\)\)$/m,
    );
    assert.doesNotMatch(r, /#name: Scale/, 'the server copy gets a name of its own');
    const python = source(notebook.cells[3]);
    assert.match(python, /^limit = 10\nlabel = "top"\n#input: int limit = 10/m);
  });

  it('names the outputs of a call whose function is not known, and keeps the answer as it came', () => {
    const { notebook } = toJupyter([{ language: 'datagrok-call', text: 'Demo:Add(a: 1, b: 2)', call: parseCallCell('Demo:Add(a: 1, b: 2)') }], OPTIONS);
    assert.match(source(notebook.cells[1]), /outputs were not known/);
    assert.match(source(notebook.cells[1]), /^cell1_result = as_frame\(grok\.functions\.call\("Demo:Add", \{"a": 1, "b": 2\}\)\)$/m);
    const named = toJupyter([{ language: 'datagrok-call', text: 's = Demo:Add(a: 1, b: 2)', call: parseCallCell('s = Demo:Add(a: 1, b: 2)') }], OPTIONS);
    assert.match(source(named.notebook.cells[1]), /^s = as_frame\(/m);
  });

  it('exports a cell of every kind without loss: what Python cannot run is a commented cell that says why', () => {
    const cells: ExportCell[] = [
      { language: 'markdown', text: '# Title\n\ntext' },
      { language: 'sql', text: '--connection: Samples:Northwind\n--output: dataframe t\nselect 1 as x' },
      { language: 'sql', text: '--output: dataframe u\nselect 1' },
      { language: 'python', text: '#output: int x\nx = 1' },
      { language: 'r', text: '#output: int y\ny <- 1' },
      { language: 'julia', text: '#output: int z\nz = 1' },
      { language: 'octave', text: '#output: int w\nw = 1' },
      { language: 'javascript', text: '//output: int v\nv = 1;' },
      { language: 'datagrok-call', text: 'Demo:Add(a: x, b: 2)', call: parseCallCell('Demo:Add(a: x, b: 2)'), outputs: [{ name: 'sum', type: 'int' }] },
      {
        language: 'json',
        text: '{"$function": "Demo:RowCount", "table": "t"}',
        call: { function: 'Demo:RowCount', args: { table: { value: 't' } } },
        outputs: [{ name: 'count', type: 'int' }],
      },
      { language: 'datagrok-call', text: 'Demo:Add(a: 1', callProblem: 'The call of Demo:Add has no closing ")".' },
      { language: 'plaintext', text: 'just words' },
    ];
    const { notebook, cells: report } = toJupyter(cells, OPTIONS);
    assert.equal(notebook.cells.length, cells.length + 1);
    cells.forEach((cell, i) => {
      const out = notebook.cells[i + 1];
      assert.deepEqual(out.metadata.datagrok, { language: cell.language, text: cell.text }, `cell ${i + 1} keeps its language and text`);
      if (report[i].as === 'commented') {
        const text = source(out);
        assert.match(text, new RegExp(`^# Cell ${i + 1} \\(${cell.language}\\) is not run here: \\S`));
        for (const line of cell.text.split('\n')) assert.ok(text.includes(`# ${line}`), `cell ${i + 1}: ${line}`);
      }
    });
    assert.deepEqual(
      report.map((r) => r.as),
      ['markdown', 'server', 'commented', 'python', 'server', 'server', 'server', 'commented', 'server', 'server', 'commented', 'commented'],
    );
    assert.match(report[2].reason ?? '', /names no connection/);
    assert.match(report[7].reason ?? '', /the Python client saves scripts in grok, julia, python, r, nodejs and octave only \(its ScriptLanguage\), not javascript/);
    assert.match(report[10].reason ?? '', /no closing/);
    assert.match(source(notebook.cells[10]), /\{"table": table_ref\("t", t\)\}/, 'a parameter object names a table by its variable');
  });

  it('writes Python literals and texts that read back as written', () => {
    assert.equal(pythonLiteral({ a: [1, true, null, 'x"y'] }), '{"a": [1, True, None, "x\\"y"]}');
    assert.equal(pythonText('select 1\nfrom t'), '"""select 1\nfrom t"""');
    assert.equal(pythonText('a """ b\nc'), '"a \\"\\"\\" b\\nc"');
    assert.equal(pythonText('a \\d\nb'), '"a \\\\d\\nb"');
  });
});
