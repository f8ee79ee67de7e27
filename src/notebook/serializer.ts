// The Datagrok notebook's file (src/platform/notebook/format.ts) as VS Code's notebook: cells by language,
// the notebook's settings as its metadata, outputs kept (as their saved form, in the cells' metadata:
// savedOutputs.ts) only when it saves them.
import * as vscode from 'vscode';
import { NotebookFormatError, type NotebookCellText, type NotebookSettings, parseNotebook, serializeNotebook } from '../platform/notebook/format';
import { savedOutput } from './outputs';
import { SAVED_OUTPUTS, savedOutputsOf } from './savedOutputs';

export class NotebookSerializer implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    const text = new TextDecoder().decode(content);
    let parsed: ReturnType<typeof parseNotebook>;
    try {
      parsed = parseNotebook(text);
    } catch (e) {
      // VS Code shows this in place of the notebook; the file is left as it is.
      if (e instanceof NotebookFormatError)
        throw new Error(`This is not a Datagrok notebook file as written. ${e.message} Fix the file in a text editor (Reopen Editor With… Text Editor).`);
      throw e;
    }
    const cells = parsed.cells.map((c) => {
      const markdown = c.language === 'markdown';
      const cell = new vscode.NotebookCellData(markdown ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code, c.text, c.language);
      if (c.outputs?.length) {
        cell.outputs = c.outputs.map(savedOutput);
        cell.metadata = { [SAVED_OUTPUTS]: c.outputs };
      }
      return cell;
    });
    const data = new vscode.NotebookData(cells);
    data.metadata = { ...parsed.settings };
    return data;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const settings: NotebookSettings = data.metadata?.saveOutputs === true ? { saveOutputs: true } : {};
    const cells: NotebookCellText[] = data.cells.map((c) => {
      // Outputs are transient (VS Code does not pass them): their saved forms are in the cell's metadata.
      const outputs = savedOutputsOf(c.metadata);
      return { language: c.kind === vscode.NotebookCellKind.Markup ? 'markdown' : c.languageId, text: c.value, ...(outputs.length ? { outputs } : {}) };
    });
    return new TextEncoder().encode(serializeNotebook({ settings, cells }));
  }
}
