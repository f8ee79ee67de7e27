// Completion in parameter files: function names in the "$function" value, the function's inputs not yet
// present at property-name positions of the root, and in a value the input's choices, tables, columns
// and CSV files (parameterValueCompletion.ts).
import type { Node } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { FuncInfo, FuncParam } from '../api/types';
import { jsoncParser } from '../platform/lazyModules';
import { describeInput, inputsOf, isRequired, jsonTypeOf, outputsOf, signatureLine } from '../platform/functions/signature';
import { EXPECT_KEY } from '../platform/tests/cases';
import { expectationSkeleton } from '../platform/tests/expect';
import { initialValue, propertiesOf, rootOf } from './parameterChecks';
import { FUNCTION_KEY } from './parameterFile';
import { isParameterFile } from './parameterFileLens';
import { allFunctions, declaredSignature, type SignatureSource } from './parameterFileSignature';
import { valueCompletions } from './parameterValueCompletion';

export class ParameterFileCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly source: SignatureSource) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[] | vscode.CompletionList> {
    if (!isParameterFile(document)) return [];
    const text = document.getText();
    const offset = document.offsetAt(position);
    const location = jsoncParser().getLocation(text, offset);
    const node = location.previousNode;
    const stringRange =
      node && (node.type === 'string' || node.type === 'property') && node.offset <= offset && offset <= node.offset + node.length ? rangeOf(document, node) : undefined;

    if (!location.isAtPropertyKey && location.path.length === 1 && location.path[0] === FUNCTION_KEY) {
      const funcs = await allFunctions(this.source);
      return funcs.map((f) => functionItem(f, stringRange));
    }
    if (location.isAtPropertyKey && location.path.length === 1) {
      const func = await declaredSignature(this.source, text, document.uri);
      if (!func) return [];
      const root = rootOf(text);
      const present = new Set(root ? propertiesOf(root).map(({ key }) => String(key.value)) : []);
      const current = node?.type === 'string' ? String(node.value) : undefined;
      const inputs = inputsOf(func)
        .filter((p) => !present.has(p.name) || p.name === current)
        .map((p) => inputItem(p, stringRange));
      return present.has(EXPECT_KEY) && current !== EXPECT_KEY ? inputs : [...inputs, expectItem(func, stringRange)];
    }
    const inCsvPath = location.path.length === 2 && location.path[1] === '$csv';
    if (!location.isAtPropertyKey && (location.path.length === 1 || inCsvPath) && typeof location.path[0] === 'string') {
      const func = await declaredSignature(this.source, text, document.uri);
      const input = func && inputsOf(func).find((p) => p.name === location.path[0]);
      if (!func || !input) return [];
      if (input.choices?.length && !inCsvPath) return input.choices.map((c, i) => choiceItem(c, i, stringRange));
      const typed = node?.type === 'string' && stringRange ? text.slice(node.offset + 1, offset) : '';
      return valueCompletions(this.source, document, { input, func, node, range: stringRange, typed, inCsvPath });
    }
    return [];
  }
}

function rangeOf(document: vscode.TextDocument, node: Node): vscode.Range {
  return new vscode.Range(document.positionAt(node.offset), document.positionAt(node.offset + node.length));
}

function functionItem(f: FuncInfo, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem(f.nqName, vscode.CompletionItemKind.Function);
  item.detail = `${f.kind} · ${f.package}`;
  const doc = new vscode.MarkdownString();
  if (f.description) doc.appendText(f.description);
  if (f.params) doc.appendCodeblock(signatureLine(f), 'text');
  item.documentation = doc;
  item.insertText = JSON.stringify(f.nqName);
  item.filterText = JSON.stringify(f.nqName);
  if (range) item.range = range;
  return item;
}

function inputItem(p: FuncParam, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem(p.name, vscode.CompletionItemKind.Property);
  item.detail = `${p.propertyType} → ${jsonTypeOf(p.propertyType)}${isRequired(p) ? ', required' : ', optional'}`;
  item.documentation = new vscode.MarkdownString().appendText(describeInput(p));
  item.insertText = new vscode.SnippetString(`${JSON.stringify(p.name)}: \${1:${escapeSnippet(JSON.stringify(initialValue(p)))}}`);
  item.filterText = JSON.stringify(p.name);
  item.sortText = `${isRequired(p) ? '0' : '1'}${p.name}`;
  if (range) item.range = range;
  return item;
}

/** "$expect": makes the file a test; its value shaped by the function's outputs. */
function expectItem(func: FuncInfo, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem(EXPECT_KEY, vscode.CompletionItemKind.Keyword);
  const outputs = outputsOf(func);
  item.detail = `test: what ${func.nqName} must answer`;
  item.documentation = new vscode.MarkdownString().appendText(expectDescription(outputs.map((o) => `${o.name}: ${o.propertyType}`)));
  item.insertText = new vscode.SnippetString(`"${escapeSnippet(EXPECT_KEY)}": \${1:${escapeSnippet(JSON.stringify(expectationSkeleton(outputs)))}}`);
  item.filterText = JSON.stringify(EXPECT_KEY);
  item.sortText = `2${EXPECT_KEY}`;
  if (range) item.range = range;
  return item;
}

export function expectDescription(outputs: string[]): string {
  return [
    `Makes this parameter file a test (Test Explorer, "Datagrok functions"). Outputs: ${outputs.join(', ') || 'none'}.`,
    'A value is compared deep-equal ("$tolerance" for numbers); several outputs by name; a dataframe by "rows", "columns" (with types), "checksum" or "firstRows"; {"$error": "text"} when the call must fail.',
  ].join(' ');
}

function choiceItem(choice: string, index: number, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem(JSON.stringify(choice), vscode.CompletionItemKind.EnumMember);
  item.insertText = JSON.stringify(choice);
  item.filterText = JSON.stringify(choice);
  item.sortText = String(index).padStart(4, '0');
  if (range) item.range = range;
  return item;
}

function escapeSnippet(text: string): string {
  return text.replace(/[$}\\]/g, (c) => `\\${c}`);
}
