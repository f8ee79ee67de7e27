// Hover in a script's header: what each key means, what a type holds, an input's or output's summary.
import * as vscode from 'vscode';
import { scriptHeaderOf } from '../core/scriptFiles';
import { describeType, HEADER_KEYS } from '../platform/scripts/vocabulary';

export class HeaderHoverProvider implements vscode.HoverProvider {
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const header = scriptHeaderOf(document);
    if (!header || position.line < header.firstLine || position.line > header.lastLine) return undefined;
    const c = position.character;
    const entry = header.entries.find((e) => e.line === position.line);
    if (!entry) return undefined;
    if (c >= entry.keyStart && c <= entry.keyEnd) {
      const doc = HEADER_KEYS[entry.key] ?? (entry.key.startsWith('meta.') ? HEADER_KEYS['meta.'] : undefined);
      return doc ? new vscode.Hover(new vscode.MarkdownString(`**${entry.key}**: ${doc}`), new vscode.Range(entry.line, entry.keyStart, entry.line, entry.keyEnd)) : undefined;
    }
    const param = [...header.inputs, ...header.outputs].find((p) => p.line === position.line);
    if (!param) return undefined;
    if (c >= param.typeStart && c <= param.typeEnd) {
      return new vscode.Hover(
        new vscode.MarkdownString(`**${param.type}**: ${describeType(param.baseType)}`),
        new vscode.Range(param.line, param.typeStart, param.line, param.typeEnd),
      );
    }
    const facts = [`${param.direction} **${param.name}**: \`${param.type}\``];
    if (param.initialText !== undefined) facts.push(`initial value \`${param.initialText}\``);
    if (param.choices) facts.push(`one of ${param.choices.map((x) => `\`${x}\``).join(', ')}`);
    const text = facts.join(', ') + (param.description ? `\n\n${param.description}` : '');
    return new vscode.Hover(new vscode.MarkdownString(text), new vscode.Range(param.line, param.nameStart, param.line, param.nameEnd));
  }
}
