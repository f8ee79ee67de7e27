// What a notebook's script and query cells get beyond the header's own completion and hover
// (src/scripts): an input's name offers the variables the cells above make (tables for a dataframe), and
// hovering an input's name tells the variable it takes (type, shape, the cell that makes it).
import * as vscode from 'vscode';
import { cellHeader, describeKnown } from '../platform/notebook/notebookFlow';
import { PREFIX } from '../platform/notebook/scriptCell';
import { type CellFactsSource, cellOf, cellTexts, notebookFacts } from './cellFacts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export class ScriptCellCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly source: CellFactsSource) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const prefix = PREFIX[document.languageId];
    if (!prefix) return [];
    const before = document.lineAt(position.line).text.slice(0, position.character);
    const m = new RegExp(`^\\s*${escapeRegExp(prefix)}\\s*input\\s*:\\s*([\\w<>]+)\\s+(\\w*)$`).exec(before);
    if (!m) return [];
    const where = cellOf(document);
    if (!where) return [];
    const { above } = (await notebookFacts(this.source, where.notebook)).at(where.cell.index);
    const table = m[1].toLowerCase() === 'dataframe';
    const range = new vscode.Range(position.line, position.character - m[2].length, position.line, position.character);
    return [...above.values()]
      .filter((v) => (table ? v.type === 'dataframe' || v.type === 'dynamic' : v.type !== 'dataframe'))
      .map((v) => {
        const item = new vscode.CompletionItem(v.name, vscode.CompletionItemKind.Variable);
        item.detail = describeKnown(v);
        item.range = range;
        return item;
      });
  }
}

export class ScriptCellHover implements vscode.HoverProvider {
  constructor(private readonly source: CellFactsSource) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const where = cellOf(document);
    if (!where) return undefined;
    const header = cellHeader(cellTexts(where.notebook)[where.cell.index]);
    const input = header?.inputs.find((p) => p.line === position.line && p.nameStart <= position.character && position.character <= p.nameEnd);
    if (!input) return undefined;
    const v = (await notebookFacts(this.source, where.notebook)).at(where.cell.index).above.get(input.name);
    const table = input.baseType.toLowerCase() === 'dataframe';
    if (!v && !table) return undefined;
    const text = v
      ? `takes **${v.name}**: ${describeKnown(v)}`
      : `no cell above makes the table **${input.name}**${input.initialText !== undefined ? ': its initial value is used' : ''}`;
    return new vscode.Hover(new vscode.MarkdownString(text), new vscode.Range(input.line, input.nameStart, input.line, input.nameEnd));
  }
}
