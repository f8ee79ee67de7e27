// Parameter files' values, in the real host against the emulator: completion of tables (searched as you
// type), `<table>/<column>` (the columns read once and cached), `{"$csv": …}` paths from the workspace;
// diagnostics for a table or column the server does not have, and for the placeholder "table/column".
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clearEmulatorRequests, emulatorRequests, resetEmulator, signIn, writeAndShow } from './support';

let dir = '';

const open = (name: string, text: string) => writeAndShow(dir, name, text);

function past(document: vscode.TextDocument, needle: string): vscode.Position {
  const offset = document.getText().indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" not in the document`);
  return document.positionAt(offset + needle.length);
}

const labelOf = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);

/** The labels offered at a position, asked until `until` holds (the first call may still be loading). */
async function offered(document: vscode.TextDocument, position: vscode.Position, until: (labels: string[]) => boolean): Promise<string[]> {
  let labels: string[] = [];
  for (let i = 0; i < 40; i++) {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
    labels = list.items.map(labelOf);
    if (until(labels)) return labels;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`completion never offered what was expected; it offered: ${labels.join(', ') || '(nothing)'}`);
}

async function datagrokDiagnostics(uri: vscode.Uri, until: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + 10_000;
  let last: vscode.Diagnostic[] = [];
  while (Date.now() < deadline) {
    last = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Datagrok');
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`diagnostics never as expected: ${JSON.stringify(last.map((d) => [d.code, d.message]))}`);
}

describe('Parameter files: completion and checks inside values', () => {
  before(async () => {
    await resetEmulator();
    await signIn();
    // In the workspace, so that its CSV files are found as they are for a user.
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the test window has a workspace folder');
    dir = fs.mkdtempSync(path.join(workspace, 'values-'));
    fs.writeFileSync(path.join(dir, 'local-values.csv'), 'a,b\n1,2\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('offers the server\'s tables for a dataframe input, searched as typed, and the workspace\'s CSV files as {"$csv": …}', async () => {
    const document = await open('tables.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": "dem"\n}\n');
    const labels = await offered(document, past(document, '"table": "dem'), (l) => l.includes('Demo:demog'));
    assert.ok(
      labels.some((l) => l === '{"$csv": "./local-values.csv"}'),
      `no $csv item: ${labels.join(', ')}`,
    );
    const csv = await open('csv.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": { "$csv": "" }\n}\n');
    await offered(csv, past(csv, '"$csv": "'), (l) => l.includes('./local-values.csv'));
  });

  it("offers <table>/<column> from the table's columns, read once and cached", async () => {
    const document = await open('columns.datagrok.json', '{\n  "$function": "Demo:ColumnStats",\n  "column": "Demo:demog/"\n}\n');
    await clearEmulatorRequests();
    const labels = await offered(document, past(document, '"column": "Demo:demog/'), (l) => l.includes('Demo:demog/AGE'));
    assert.ok(labels.includes('Demo:demog/SEX'), labels.join(', '));
    await offered(document, past(document, '"column": "Demo:demog/'), (l) => l.includes('Demo:demog/AGE'));
    const reads = (await emulatorRequests()).filter((r) => r.method === 'GET' && /\/tables\/Demo[.:]demog$/.test(decodeURIComponent(r.path)));
    assert.ok(reads.length <= 1, `the table's columns were read ${reads.length} times: ${reads.map((r) => r.path).join(', ')}`);
    // Before the slash: the tables, to pick one and go on to its columns.
    const start = await open('columns-start.datagrok.json', '{\n  "$function": "Demo:ColumnStats",\n  "column": ""\n}\n');
    await offered(start, past(start, '"column": "'), (l) => l.includes('Demo:demog/'));
  });

  it('flags a table or a column the server does not have, and the placeholder "table/column"', async () => {
    const document = await open('missing.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": "Demo:noSuchTable"\n}\n');
    const [missing] = await datagrokDiagnostics(document.uri, (d) => d.some((x) => x.code === 'missingTable'));
    assert.match(missing!.message, /has no table "Demo:noSuchTable"/);
    assert.equal(document.getText(missing!.range), '"Demo:noSuchTable"');

    const column = await open('missing-column.datagrok.json', '{\n  "$function": "Demo:ColumnStats",\n  "column": "Demo:demog/age2"\n}\n');
    const [noColumn] = await datagrokDiagnostics(column.uri, (d) => d.some((x) => x.code === 'missingColumn'));
    assert.match(noColumn!.message, /The table "Demo:demog" has no column "age2".*AGE/);

    const placeholder = await open('placeholder.datagrok.json', '{\n  "$function": "Demo:ColumnStats",\n  "column": "table/column"\n}\n');
    const [held] = await datagrokDiagnostics(placeholder.uri, (d) => d.some((x) => x.code === 'placeholder'));
    assert.match(held!.message, /still holds the placeholder "table\/column"/);
    // A table that is there: nothing said about it.
    const fine = await open('fine.datagrok.json', '{\n  "$function": "Demo:ColumnStats",\n  "column": "Demo:demog/AGE"\n}\n');
    await new Promise((r) => setTimeout(r, 1500));
    const said = vscode.languages.getDiagnostics(fine.uri).filter((d) => d.source === 'Datagrok');
    assert.deepEqual(
      said.map((d) => d.code),
      [],
    );
  });

  it('a table the server names owner first: completion offers its full name and columns, checks accept it with or without the owner', async () => {
    const csv = path.join(dir, 'scores.csv');
    fs.writeFileSync(csv, 'name,score\na,1\n');
    const pushed = await vscode.commands.executeCommand<{ name: string }>('datagrok.tables.push', { uri: csv, name: 'Owned.scores' });
    assert.equal(pushed.name, 'demo:Owned:scores');
    const table = await open('owned.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": "Owned:sc"\n}\n');
    await offered(table, past(table, '"table": "Owned:sc'), (l) => l.includes('demo:Owned:scores'));
    const column = await open('owned-column.datagrok.json', '{\n  "$function": "Demo:ColumnStats",\n  "column": "demo:Owned:scores/"\n}\n');
    await offered(column, past(column, '"column": "demo:Owned:scores/'), (l) => l.includes('demo:Owned:scores/score'));
    for (const name of ['demo:Owned:scores', 'Owned.scores']) {
      const fine = await open(`owned-${name.length}.datagrok.json`, `{\n  "$function": "Demo:ColumnStats",\n  "column": "${name}/score"\n}\n`);
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(
        vscode.languages
          .getDiagnostics(fine.uri)
          .filter((d) => d.source === 'Datagrok')
          .map((d) => d.code),
        [],
        name,
      );
    }
    const foreign = await open('owned-foreign.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": "alice:Owned:scores"\n}\n');
    const [missing] = await datagrokDiagnostics(foreign.uri, (d) => d.some((x) => x.code === 'missingTable'));
    assert.match(missing!.message, /has no table "alice:Owned:scores"/);
  });

  it('a run that names a missing table fails with "Pick a Table…" (not Open Settings) for the interactive run', async () => {
    const document = await open('run-missing.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": "Demo:noSuchTable"\n}\n');
    // Called with options it rejects with the server's message; the action is for the user's own runs.
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.functions.run', { uri: document.uri })), /noSuchTable/);
  });

  it('offers "$function" once at a new key', async () => {
    const document = await open('function-key.datagrok.json', '{\n  ""\n}\n');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, past(document, '{\n  "'));
    const fn = list.items.filter((i) => labelOf(i).replace(/"/g, '') === '$function');
    assert.ok(
      fn.length <= 1,
      `"$function" is offered ${fn.length} times: ${JSON.stringify(fn.map((i) => [labelOf(i), i.kind, i.insertText instanceof vscode.SnippetString ? i.insertText.value : i.insertText]))}`,
    );
  });
});
