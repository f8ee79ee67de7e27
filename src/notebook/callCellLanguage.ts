// Completion, hover and signature help in a notebook's function-call cells (`Pkg:Func(name: value)`): the
// server's functions (the catalog the parameter files and the Functions view use), after `Func(` its inputs,
// as values the input's choices and the variables the cells above make (tables for a table input).
import * as vscode from 'vscode';
import type { FuncInfo, FuncParam } from '../api/types';
import { allFunctions } from '../platform/functions/lookups';
import { describeInput, inputsOf, isRequired, signatureLine } from '../platform/functions/signature';
import { callSpotAt } from '../platform/notebook/callAssist';
import { parseCallLayout, type Span } from '../platform/notebook/cells';
import { describeKnown, type KnownVariable } from '../platform/notebook/notebookFlow';
import { type CellFactsSource, cellOf, notebookFacts } from './cellFacts';

const rangeOf = (document: vscode.TextDocument, span: Span) => new vscode.Range(document.positionAt(span.start), document.positionAt(span.end));
const suggestAgain = { command: 'editor.action.triggerSuggest', title: 'Suggest' };

/** What a completion replaces: the span, cut at the end of its first line (VS Code takes one-line ranges holding the cursor only). */
function replacing(document: vscode.TextDocument, span: Span, position: vscode.Position): vscode.Range {
  const whole = rangeOf(document, span);
  const range = whole.isSingleLine ? whole : new vscode.Range(whole.start, document.lineAt(whole.start.line).range.end);
  return range.contains(position) ? range : new vscode.Range(position, position);
}

/** The function and the variables where the cursor is, in a call cell of a Datagrok notebook. */
async function context(source: CellFactsSource, document: vscode.TextDocument, functionName?: string) {
  const where = cellOf(document);
  if (!where) return undefined;
  const facts = await notebookFacts(source, where.notebook, functionName);
  const func = functionName ? facts.functions.get(functionName.toLowerCase()) : undefined;
  return { ...facts.at(where.cell.index), func: func?.func, missing: func?.missing === true };
}

function functionDoc(f: FuncInfo): vscode.MarkdownString {
  const doc = new vscode.MarkdownString();
  doc.appendCodeblock(signatureLine(f), 'text');
  if (f.description) doc.appendText(f.description);
  return doc;
}

/** Variables that fit an input: tables for a table, anything else for the rest (all when the input is not known). */
function fits(input: FuncParam | undefined, v: KnownVariable): boolean {
  if (!input) return true;
  const table = input.propertyType.toLowerCase() === 'dataframe';
  return table ? v.type === 'dataframe' || v.type === 'dynamic' : v.type !== 'dataframe' || ['dynamic', 'object', 'list'].includes(input.propertyType.toLowerCase());
}

export class CallCellCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly source: CellFactsSource) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const text = document.getText();
    const spot = callSpotAt(text, document.offsetAt(position));
    if (spot.kind === 'none') return [];
    const range = replacing(document, spot.span, position);
    if (spot.kind === 'function') {
      if (!cellOf(document)) return [];
      const hasCall = text.slice(spot.span.end).trimStart().startsWith('(');
      return (await allFunctions(this.source)).map((f) => {
        const item = new vscode.CompletionItem(f.nqName, vscode.CompletionItemKind.Function);
        item.detail = `${f.kind} · ${f.package}`;
        item.documentation = functionDoc(f);
        item.range = range;
        if (!hasCall) {
          item.insertText = new vscode.SnippetString(`${f.nqName}($0)`);
          item.command = suggestAgain;
        }
        return item;
      });
    }
    const c = await context(this.source, document, spot.function);
    if (!c) return [];
    const inputs = c.func ? inputsOf(c.func) : [];
    if (spot.kind === 'argument')
      return inputs
        .filter((p) => !spot.given.includes(p.name))
        .map((p) => {
          const item = new vscode.CompletionItem(p.name, vscode.CompletionItemKind.Property);
          item.detail = `${p.propertyType}${isRequired(p) ? ', required' : ', optional'}`;
          item.documentation = new vscode.MarkdownString().appendText(describeInput(p));
          item.insertText = `${p.name}: `;
          item.sortText = `${isRequired(p) ? '0' : '1'}${p.name}`;
          item.range = range;
          item.command = suggestAgain;
          return item;
        });
    const input = inputs.find((p) => p.name === spot.key);
    const choices = (input?.choices ?? []).map((choice, i) => {
      const item = new vscode.CompletionItem(JSON.stringify(choice), vscode.CompletionItemKind.EnumMember);
      item.sortText = `0${String(i).padStart(4, '0')}`;
      item.range = range;
      return item;
    });
    const variables = [...c.above.values()]
      .filter((v) => fits(input, v))
      .map((v) => {
        const item = new vscode.CompletionItem(v.name, vscode.CompletionItemKind.Variable);
        item.detail = describeKnown(v);
        item.sortText = `1${v.name}`;
        item.range = range;
        return item;
      });
    return [...choices, ...variables];
  }
}

export class CallCellHover implements vscode.HoverProvider {
  constructor(private readonly source: CellFactsSource) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    let layout: ReturnType<typeof parseCallLayout>;
    try {
      layout = parseCallLayout(document.getText());
    } catch {
      return undefined;
    }
    const offset = document.offsetAt(position);
    const inside = (span: Span | undefined): span is Span => span !== undefined && span.start <= offset && offset <= span.end;
    const c = await context(this.source, document, layout.function);
    if (!c) return undefined;
    const hover = (markdown: vscode.MarkdownString, span: Span) => new vscode.Hover(markdown, rangeOf(document, span));
    if (inside(layout.functionSpan)) {
      if (c.func) return hover(functionDoc(c.func), layout.functionSpan);
      return c.missing ? hover(new vscode.MarkdownString().appendText(`The server has no function ${layout.function}.`), layout.functionSpan) : undefined;
    }
    if (inside(layout.assignSpan)) {
      const first = c.func?.params?.find((p) => !p.isInput);
      const what = first ? `the output ${first.name} (${first.propertyType}) of ${layout.function}` : `the result of ${layout.function}`;
      return hover(new vscode.MarkdownString().appendMarkdown(`**${layout.assignTo}**: `).appendText(what), layout.assignSpan);
    }
    for (const arg of layout.args) {
      const input = c.func ? inputsOf(c.func).find((p) => p.name === arg.key) : undefined;
      if (inside(arg.keySpan) && input) {
        const doc = new vscode.MarkdownString().appendMarkdown(`input **${input.name}**: \`${input.propertyType}\`${isRequired(input) ? ', required' : ', optional'}`);
        const about = describeInput(input);
        return hover(about ? doc.appendMarkdown('\n\n').appendText(about) : doc, arg.keySpan);
      }
      if (inside(arg.valueSpan) && 'variable' in arg.value) {
        const v = c.above.get(arg.value.variable);
        const doc = new vscode.MarkdownString().appendMarkdown(`**${arg.value.variable}**: `);
        return hover(doc.appendText(v ? describeKnown(v) : 'no cell above makes it'), arg.valueSpan);
      }
    }
    return undefined;
  }
}

export class CallCellSignatureHelp implements vscode.SignatureHelpProvider {
  constructor(private readonly source: CellFactsSource) {}

  async provideSignatureHelp(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.SignatureHelp | undefined> {
    const spot = callSpotAt(document.getText(), document.offsetAt(position));
    if (spot.kind !== 'argument' && spot.kind !== 'value') return undefined;
    const c = await context(this.source, document, spot.function);
    if (!c?.func) return undefined;
    const inputs = inputsOf(c.func);
    const label = signatureLine(c.func);
    const signature = new vscode.SignatureInformation(label, c.func.description);
    let from = label.indexOf('(') + 1;
    signature.parameters = inputs.map((p) => {
      const text = `${p.name}: ${p.propertyType}`;
      const start = label.indexOf(text, from);
      from = start + text.length;
      return new vscode.ParameterInformation([start, start + text.length], describeInput(p) || undefined);
    });
    const help = new vscode.SignatureHelp();
    help.signatures = [signature];
    help.activeSignature = 0;
    const named = spot.kind === 'value' ? spot.key : undefined;
    const active = named !== undefined ? inputs.findIndex((p) => p.name === named) : inputs.findIndex((p) => !spot.given.includes(p.name));
    help.activeParameter = Math.max(active, 0);
    return help;
  }
}
