// Completion in a script's header: its keys, the languages, the types of inputs and outputs, their
// options, and the connection names of the active server (queries).
import * as vscode from 'vscode';
import { scriptPrefix } from '../core/scriptFiles';
import { DOCUMENTED_TYPES, describeType, HEADER_KEYS, KNOWN_TYPES, LANGUAGES, PARAM_OPTIONS } from '../platform/scripts/vocabulary';
import { headerSpot, inFirstCommentBlock } from '../platform/scripts/headerContext';

export class HeaderCompletionProvider implements vscode.CompletionItemProvider {
  /** `connections`: the active server's connection names (empty when unknown); never throws. */
  constructor(private readonly connections: () => Promise<string[]>) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    const prefix = scriptPrefix(document.languageId, document.uri.path);
    if (!prefix) return [];
    const lines = document.getText(new vscode.Range(0, 0, position.line + 1, 0)).split(/\r?\n/);
    if (!inFirstCommentBlock(lines, position.line, prefix)) return [];
    const spot = headerSpot(document.lineAt(position.line).text.slice(0, position.character), prefix);
    if (spot.kind === 'none') return [];
    const range = new vscode.Range(position.line, spot.start, position.line, position.character);
    const item = (label: string, kind: vscode.CompletionItemKind, detail?: string, insert?: string | vscode.SnippetString) => {
      const i = new vscode.CompletionItem(label, kind);
      i.range = range;
      i.detail = detail;
      if (insert) i.insertText = insert;
      return i;
    };
    switch (spot.kind) {
      case 'key':
        return Object.entries(HEADER_KEYS).map(([key, doc], n) => {
          const i = item(key, vscode.CompletionItemKind.Property, undefined, key.endsWith('.') ? key : `${key}: `);
          i.documentation = new vscode.MarkdownString(doc);
          i.sortText = String(n).padStart(3, '0');
          if (!key.endsWith('.')) i.command = { command: 'editor.action.triggerSuggest', title: 'Suggest' };
          return i;
        });
      case 'type': {
        const types = [...DOCUMENTED_TYPES, ...[...KNOWN_TYPES].filter((t) => !DOCUMENTED_TYPES.includes(t))];
        return types.map((t, n) => {
          const i = item(t, vscode.CompletionItemKind.TypeParameter, describeType(t), `${t} `);
          i.sortText = String(n).padStart(3, '0');
          return i;
        });
      }
      case 'option':
        return Object.entries(PARAM_OPTIONS).map(([o, doc]) => item(o, vscode.CompletionItemKind.Field, doc, `${o}: `));
      case 'value':
        if (spot.key === 'language') return LANGUAGES.map((l) => item(l, vscode.CompletionItemKind.EnumMember));
        if (spot.key === 'connection') {
          const names = await this.connections().catch(() => []);
          return names.map((n) => item(n.replace(/^.*:/, ''), vscode.CompletionItemKind.Reference, n));
        }
        return [];
    }
  }
}
