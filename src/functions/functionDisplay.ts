// How the Functions view shows a function: its icon, a short description, its signature as Markdown
// (the tooltip) and the name of its parameter file. Pure: no vscode.
import type { FuncInfo, FuncParam, FunctionKind } from '../api/types';
import { inputsOf, isRequired, outputsOf, signatureLine } from '../platform/functions/signature';

/** The codicon of a function's kind. */
export function kindIcon(kind: FunctionKind): string {
  switch (kind) {
    case 'script':
      return 'file-code';
    case 'query':
      return 'database';
    default:
      return 'symbol-function';
  }
}

/** The first line of a description, at most `max` characters (an ellipsis when cut). */
export function shortDescription(text: string | undefined, max = 80): string | undefined {
  const line = text?.trim().split(/\r?\n/)[0]?.trim();
  if (!line) return undefined;
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** Text shown literally in Markdown. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

function code(text: string): string {
  const ticks = text.includes('`') ? '``' : '`';
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${text}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

function paramLine(p: FuncParam, input: boolean): string {
  let line = `- ${code(p.name)}: ${escapeMarkdown(p.propertyType)}`;
  if (p.defaultValue !== undefined && p.defaultValue !== null) line += ` = ${code(JSON.stringify(p.defaultValue))}`;
  if (input && !isRequired(p)) line += ' _(optional)_';
  if (p.choices && p.choices.length > 0) line += `, one of ${p.choices.map((c) => code(JSON.stringify(c))).join(', ')}`;
  if (p.description) line += ` — ${escapeMarkdown(p.description.replace(/\s+/g, ' ').trim())}`;
  return line;
}

/**
 * The tooltip of a function: its name and kind, its description, its signature line, then its inputs
 * (types, defaults, optional, choices, descriptions) and outputs. A function read without its
 * signature says so instead of listing nothing.
 */
export function signatureMarkdown(func: FuncInfo): string {
  const kind = func.kind === 'script' && func.language ? `${func.language} script` : func.kind;
  const parts = [`**${escapeMarkdown(func.nqName)}** · ${escapeMarkdown(kind)}`];
  if (func.description?.trim()) parts.push(escapeMarkdown(func.description.trim()));
  if (!func.params) {
    parts.push('_The server did not describe its parameters._');
    return parts.join('\n\n');
  }
  parts.push(code(signatureLine(func)));
  const inputs = inputsOf(func);
  const outputs = outputsOf(func);
  parts.push(inputs.length ? `**Inputs**\n\n${inputs.map((p) => paramLine(p, true)).join('\n')}` : '_No inputs._');
  if (outputs.length) parts.push(`**Outputs**\n\n${outputs.map((p) => paramLine(p, false)).join('\n')}`);
  return parts.join('\n\n');
}

/** `<Name>.datagrok.json`, the name made safe for any file system. */
export function parameterFileName(func: Pick<FuncInfo, 'name' | 'nqName'>): string {
  const raw = func.name || func.nqName.split(':').pop() || 'function';
  const name = [...raw]
    .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .replace(/^\.+/, '_');
  return `${name}.datagrok.json`;
}
