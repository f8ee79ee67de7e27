// A notebook's parameter-object cell (`{"$function": …}`, JSON): in a table input's value, the tables the
// cells above make, by name (a run passes them by reference). The rest of its completion is the parameter
// files' (src/functions), whose items VS Code shows beside these.
import * as vscode from 'vscode';
import { declaredFunction } from '../core/parameterFile';
import { jsoncParser } from '../platform/lazyModules';
import { lookUpFunction } from '../platform/functions/lookups';
import { inputsOf } from '../platform/functions/signature';
import { describeKnown } from '../platform/notebook/notebookFlow';
import { type CellFactsSource, cellOf, notebookFacts } from './cellFacts';

export class ParamCellCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly source: CellFactsSource) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const text = document.getText();
    const offset = document.offsetAt(position);
    const location = jsoncParser().getLocation(text, offset);
    const key = location.path[0];
    if (location.isAtPropertyKey || location.path.length !== 1 || typeof key !== 'string' || key.startsWith('$')) return [];
    const declared = declaredFunction(text);
    const where = declared && cellOf(document);
    if (!declared || !where) return [];
    const { func } = await lookUpFunction(this.source, declared.name);
    const input = func && inputsOf(func).find((p) => p.name === key);
    if (input?.propertyType.toLowerCase() !== 'dataframe') return [];
    const node = location.previousNode;
    const inString = node?.type === 'string' && node.offset <= offset && offset <= node.offset + node.length;
    const range = inString ? new vscode.Range(document.positionAt(node.offset), document.positionAt(node.offset + node.length)) : undefined;
    const { above } = (await notebookFacts(this.source, where.notebook)).at(where.cell.index);
    return [...above.values()]
      .filter((v) => v.type === 'dataframe' || v.type === 'dynamic')
      .map((v) => {
        const item = new vscode.CompletionItem(JSON.stringify(v.name), vscode.CompletionItemKind.Variable);
        item.detail = `notebook: ${describeKnown(v)}`;
        // Before the server's tables.
        item.sortText = ` ${v.name}`;
        if (range) item.range = range;
        return item;
      });
  }
}
