// The outline of a script: the function its header declares, with its inputs and outputs.
import * as vscode from 'vscode';
import { scriptFileName, scriptHeaderOf } from '../core/scriptFiles';
import { headerSignature } from '../platform/scripts/signature';

export class HeaderSymbolProvider implements vscode.DocumentSymbolProvider {
  provideDocumentSymbols(document: vscode.TextDocument): vscode.DocumentSymbol[] {
    const header = scriptHeaderOf(document);
    if (!header) return [];
    const sig = headerSignature(header, scriptFileName(document));
    const whole = new vscode.Range(header.firstLine, 0, header.lastLine, document.lineAt(header.lastLine).text.length);
    const nameEntry = header.entries.find((e) => e.key === 'name');
    const nameRange = nameEntry
      ? new vscode.Range(nameEntry.line, nameEntry.valueStart, nameEntry.line, nameEntry.valueStart + nameEntry.value.length)
      : new vscode.Range(header.firstLine, 0, header.firstLine, 0);
    const root = new vscode.DocumentSymbol(sig.name, sig.kind === 'query' ? 'query' : (sig.language ?? 'script'), vscode.SymbolKind.Function, whole, nameRange);
    for (const p of [...header.inputs, ...header.outputs]) {
      if (!p.name) continue;
      const line = document.lineAt(p.line).range;
      const symbol = new vscode.DocumentSymbol(
        p.name,
        `${p.direction} ${p.type}`,
        p.direction === 'input' ? vscode.SymbolKind.Variable : vscode.SymbolKind.Property,
        line,
        new vscode.Range(p.line, p.nameStart, p.line, p.nameEnd),
      );
      root.children.push(symbol);
    }
    return [root];
  }
}
