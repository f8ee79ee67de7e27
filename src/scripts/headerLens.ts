// The CodeLenses above a script's header: ▶ Run on Datagrok (the editor's text, not the saved function),
// New Parameter File, Push to Datagrok.
import * as vscode from 'vscode';
import { uiArguments } from '../core/commands';
import { scriptHeaderOf } from '../core/scriptFiles';

export class HeaderLensProvider implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const header = scriptHeaderOf(document);
    if (!header) return [];
    const top = new vscode.Range(header.firstLine, 0, header.firstLine, 0);
    const name = header.value('name') ?? 'this script';
    return [
      new vscode.CodeLens(top, {
        title: '▶ Run on Datagrok',
        command: 'datagrok.scripts.run',
        arguments: uiArguments(document.uri),
        tooltip: `Run this text on the Datagrok server as a temporary copy (its inputs are asked first): ${name} as saved there is not changed`,
      }),
      new vscode.CodeLens(top, {
        title: 'New Parameter File',
        command: 'datagrok.scripts.newParameterFile',
        arguments: uiArguments(document.uri),
        tooltip: "A parameter file with this script's inputs, to run it with",
      }),
      new vscode.CodeLens(top, {
        title: 'Push to Datagrok',
        command: 'datagrok.scripts.push',
        arguments: uiArguments(document.uri),
        tooltip: `Save ${name} on the Datagrok server (create or update)`,
      }),
    ];
  }
}
