// Completion in a package's function annotations: in a `//` block above a function, its keys, the types
// of inputs and outputs, their options, the roles of `meta.role` and `tags`; in a decorator, the
// decorators' names, the options of `@grok.decorators.<kind>({...})`, of its `meta`, of a
// `@grok.decorators.param` and its `options`, and the roles of `role`.
import * as vscode from 'vscode';
import {
  DECORATOR_OPTIONS,
  DECORATORS,
  META_KEYS,
  PACKAGE_KEYS,
  PACKAGE_PARAM_OPTIONS,
  PACKAGE_TYPES,
  PARAM_DECORATOR_OPTIONS,
  ROLES,
} from '../platform/packages/annotationVocabulary';
import { decoratorSpot } from '../platform/packages/decoratorSpot';
import { headerSpot } from '../platform/scripts/headerContext';
import { DOCUMENTED_TYPES, describeType } from '../platform/scripts/vocabulary';
import type { PackageSources } from './packageSources';

export const COMPLETION_TRIGGERS = [':', '.', '{', ';', ',', "'"];
/** What starts a function a `//` block may annotate (as annotations.ts reads it). */
const DECLARATION = /^\s*(?:export\s+)?(?:async\s+)?function\b|^\s*(?:export\s+)?(?:const|let)\s+\w+\s*=/;

/** Whether line `line` is in a `//` block that ends right above a function declaration. */
function inAnnotationBlock(document: vscode.TextDocument, line: number): boolean {
  for (let i = line; i < document.lineCount; i++) {
    const text = document.lineAt(i).text;
    if (!text.trimStart().startsWith('//')) return DECLARATION.test(text);
  }
  return false;
}

export class AnnotationCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly sources: PackageSources) {}

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    if (!this.sources.isSource(document)) return [];
    const before = document.lineAt(position.line).text.slice(0, position.character);
    const item = (label: string, kind: vscode.CompletionItemKind, start: number, doc?: string, insert?: string) => {
      const i = new vscode.CompletionItem(label, kind);
      i.range = new vscode.Range(position.line, start, position.line, position.character);
      if (doc) i.documentation = new vscode.MarkdownString(doc);
      if (insert !== undefined) i.insertText = insert;
      i.sortText = `!${label}`;
      return i;
    };
    if (/^\s*\/\//.test(before)) return inAnnotationBlock(document, position.line) ? this.comment(before, item) : [];
    return this.decorator(document, position, item);
  }

  private comment(
    before: string,
    item: (label: string, kind: vscode.CompletionItemKind, start: number, doc?: string, insert?: string) => vscode.CompletionItem,
  ): vscode.CompletionItem[] {
    const spot = headerSpot(before, '//');
    const space = before.endsWith(':') ? ' ' : '';
    switch (spot.kind) {
      case 'key':
        return Object.entries(PACKAGE_KEYS).map(([key, doc]) => {
          const i = item(key, vscode.CompletionItemKind.Property, spot.start, doc, key.endsWith('.') ? key : `${key}: `);
          if (!key.endsWith('.')) i.command = { command: 'editor.action.triggerSuggest', title: 'Suggest' };
          return i;
        });
      case 'type': {
        const types = [...DOCUMENTED_TYPES, ...[...PACKAGE_TYPES].filter((t) => !DOCUMENTED_TYPES.includes(t) && t !== 'void')];
        return types.map((t) => item(t, vscode.CompletionItemKind.TypeParameter, spot.start, describeType(t), `${space}${t} `));
      }
      case 'option':
        return Object.entries(PACKAGE_PARAM_OPTIONS).map(([o, doc]) => item(o, vscode.CompletionItemKind.Field, spot.start, doc, `${o}: `));
      case 'value': {
        if (spot.key !== 'meta.role' && spot.key !== 'tags') return [];
        const last = spot.typed.lastIndexOf(',') + 1;
        const typed = spot.typed.slice(last);
        const start = spot.start + last + (typed.length - typed.trimStart().length);
        return Object.entries(ROLES).map(([role, doc]) => item(role, vscode.CompletionItemKind.EnumMember, start, doc, `${space}${role}`));
      }
      default:
        return [];
    }
  }

  private decorator(
    document: vscode.TextDocument,
    position: vscode.Position,
    item: (label: string, kind: vscode.CompletionItemKind, start: number, doc?: string, insert?: string) => vscode.CompletionItem,
  ): vscode.CompletionItem[] {
    const text = document.getText();
    const spot = decoratorSpot(text, document.offsetAt(position));
    const column = (start: number) => document.positionAt(start).character;
    switch (spot.kind) {
      case 'decorator':
        return [
          ...Object.entries(DECORATORS).map(([name, d]) =>
            item(name, vscode.CompletionItemKind.Function, column(spot.start), `${d.doc}${d.role ? ` Adds the role \`${d.role}\`.` : ''}`),
          ),
          item('param', vscode.CompletionItemKind.Function, column(spot.start), "A parameter's input: its name, type and options."),
        ];
      case 'role':
        return Object.entries(ROLES).map(([role, doc]) => item(role, vscode.CompletionItemKind.EnumMember, column(spot.start), doc));
      case 'key': {
        const keys: Record<string, string> =
          spot.object === 'function'
            ? DECORATOR_OPTIONS
            : spot.object === 'param'
              ? PARAM_DECORATOR_OPTIONS
              : spot.object === 'meta'
                ? Object.fromEntries(META_KEYS.map((k) => [k, k === 'role' ? PACKAGE_KEYS['meta.role'] : `Written as \`meta.${k}\`.`]))
                : PACKAGE_PARAM_OPTIONS;
        return Object.entries(keys).map(([key, doc]) => {
          const bare = /^[A-Za-z_$][\w$]*$/.test(key);
          return item(key, vscode.CompletionItemKind.Property, column(spot.start), doc, spot.quoted ? key : `${bare ? key : `'${key}'`}: `);
        });
      }
      default:
        return [];
    }
  }
}
