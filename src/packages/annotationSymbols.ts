// The Outline of a package's file: its functions as the platform knows them (name, roles or tags), each
// with its inputs and outputs, whether annotated by comments or decorated.
import * as vscode from 'vscode';
import type { PackageSources } from './packageSources';

export class AnnotationSymbolProvider implements vscode.DocumentSymbolProvider {
  constructor(private readonly sources: PackageSources) {}

  provideDocumentSymbols(document: vscode.TextDocument): vscode.DocumentSymbol[] {
    return this.sources.functions(document).map((f) => {
      const last = Math.max(f.lastLine, f.declared.line);
      const whole = new vscode.Range(f.firstLine, 0, last, document.lineAt(last).text.length);
      const name = new vscode.Range(f.declared.line, f.declared.start, f.declared.line, f.declared.end);
      const detail =
        f.roles.length > 0
          ? `role ${f.roles.join(', ')}`
          : f.tags.length > 0
            ? `tags ${f.tags.join(', ')}`
            : f.form === 'decorator'
              ? `@grok.decorators.${f.decorator?.kind}`
              : 'function';
      const symbol = new vscode.DocumentSymbol(f.name, detail, vscode.SymbolKind.Function, whole, name);
      for (const p of [...f.inputs, ...f.outputs]) {
        if (!p.name || p.line > last) continue;
        const range = new vscode.Range(p.line, p.nameStart, p.line, Math.max(p.nameEnd, p.nameStart));
        symbol.children.push(
          new vscode.DocumentSymbol(p.name, `${p.direction} ${p.type}`, p.direction === 'input' ? vscode.SymbolKind.Variable : vscode.SymbolKind.Property, range, range),
        );
      }
      return symbol;
    });
  }
}
