// Hover in parameter files: the signature on the "$function" value, an input's type, default, whether it
// is required and its description on the input's key.
import * as vscode from 'vscode';
import type { FuncInfo, FuncParam } from '../api/types';
import { jsoncParser } from '../platform/lazyModules';
import { inputsOf, isRequired, jsonTypeOf, outputsOf } from '../platform/functions/signature';
import { EXPECT_KEY } from '../platform/tests/cases';
import { FUNCTION_KEY } from './parameterFile';
import { expectDescription } from './parameterFileCompletion';
import { isParameterFile } from './parameterFileLens';
import { declaredSignature, type SignatureSource } from './parameterFileSignature';

export class ParameterFileHoverProvider implements vscode.HoverProvider {
  constructor(private readonly source: SignatureSource) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!isParameterFile(document)) return undefined;
    const text = document.getText();
    const { findNodeAtOffset, parseTree } = jsoncParser();
    const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
    if (root?.type !== 'object') return undefined;
    const node = findNodeAtOffset(root, document.offsetAt(position));
    const property = node?.parent;
    if (node?.type !== 'string' || property?.type !== 'property' || property.parent !== root) return undefined;
    const isKey = property.children?.[0] === node;
    const key = String(property.children?.[0]?.value);
    const range = new vscode.Range(document.positionAt(node.offset), document.positionAt(node.offset + node.length));
    if (key === FUNCTION_KEY && !isKey) {
      const func = await declaredSignature(this.source, text, document.uri);
      return func ? new vscode.Hover(functionMarkdown(func), range) : undefined;
    }
    if (!isKey) return undefined;
    const func = await declaredSignature(this.source, text, document.uri);
    if (key === EXPECT_KEY && func) {
      return new vscode.Hover(
        new vscode.MarkdownString()
          .appendMarkdown(`**$expect** — a test of ${func.nqName}\n\n`)
          .appendText(expectDescription(outputsOf(func).map((o) => `${o.name}: ${o.propertyType}`))),
        range,
      );
    }
    const input = func && inputsOf(func).find((p) => p.name === key);
    return input ? new vscode.Hover(inputMarkdown(input), range) : undefined;
  }
}

const param = (p: FuncParam) =>
  `\`${p.name}\`: ${p.propertyType}${p.defaultValue !== undefined && p.defaultValue !== null ? ` = \`${JSON.stringify(p.defaultValue)}\`` : ''}${p.description ? ` — ${p.description}` : ''}`;

export function functionMarkdown(func: FuncInfo): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${func.nqName}** _(${func.kind})_\n\n`);
  if (func.description) md.appendText(`${func.description}\n\n`);
  const inputs = inputsOf(func);
  const outputs = outputsOf(func);
  md.appendMarkdown(`Inputs:${inputs.length ? '' : ' none'}\n\n${inputs.map((p) => `- ${param(p)}${isRequired(p) ? '' : ' _(optional)_'}`).join('\n')}\n\n`);
  if (outputs.length) md.appendMarkdown(`Outputs:\n\n${outputs.map((p) => `- ${param(p)}`).join('\n')}\n`);
  return md;
}

export function inputMarkdown(p: FuncParam): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${p.name}**: ${p.propertyType} — JSON: ${jsonTypeOf(p.propertyType)}, ${isRequired(p) ? 'required' : 'optional'}\n\n`);
  if (p.defaultValue !== undefined && p.defaultValue !== null) md.appendMarkdown(`Default: \`${JSON.stringify(p.defaultValue)}\`\n\n`);
  if (p.choices) md.appendMarkdown(`One of: ${p.choices.map((c) => `\`${JSON.stringify(c)}\``).join(', ')}\n\n`);
  if (p.description) md.appendText(p.description);
  return md;
}
