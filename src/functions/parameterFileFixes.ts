// Quick fixes for parameter file diagnostics: add the missing required inputs (defaults or placeholders),
// remove an unknown input, replace an unknown "$function" with the closest known name.
import * as vscode from 'vscode';
import { closestName, smallestEdit, withMissingInputs, withoutInput } from './parameterChecks';
import { declaredFunction } from './parameterFile';
import { DIAGNOSTIC_SOURCE } from './parameterFileDiagnostics';
import { allFunctions, declaredSignature, type SignatureSource } from './parameterFileSignature';

export class ParameterFileFixProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly source: SignatureSource) {}

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const actions: vscode.CodeAction[] = [];
    const text = document.getText();
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      let after: string | undefined;
      let title = '';
      if (diagnostic.code === 'missingInput') {
        const func = await declaredSignature(this.source, text, document.uri);
        after = func && withMissingInputs(text, func);
        title = 'Add the missing inputs';
      } else if (diagnostic.code === 'unknownInput') {
        const name = parseName(document.getText(diagnostic.range));
        after = name === undefined ? undefined : withoutInput(text, name);
        title = `Remove the input "${name}"`;
      } else if (diagnostic.code === 'unknownFunction') {
        const declared = declaredFunction(text);
        const near =
          declared &&
          closestName(
            declared.name.trim(),
            (await allFunctions(this.source)).map((f) => f.nqName),
          );
        if (near) {
          const action = fix(`Change to ${near}`, diagnostic);
          action.edit!.replace(document.uri, diagnostic.range, JSON.stringify(near));
          actions.push(action);
        }
        continue;
      }
      if (after === undefined || after === text) continue;
      const edit = smallestEdit(text, after);
      const action = fix(title, diagnostic);
      action.edit!.replace(document.uri, new vscode.Range(document.positionAt(edit.offset), document.positionAt(edit.offset + edit.length)), edit.text);
      actions.push(action);
    }
    return actions;
  }
}

function fix(title: string, diagnostic: vscode.Diagnostic): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.isPreferred = true;
  action.edit = new vscode.WorkspaceEdit();
  return action;
}

function parseName(keyText: string): string | undefined {
  try {
    const name: unknown = JSON.parse(keyText);
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
