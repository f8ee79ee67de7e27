// `datagrok-schema:/Demo:Add.schema.json`: the JSON schema of a function's parameter files, generated
// from its signature (the catalog's, cached per server). For `$schema` references and other tools.
// Not associated with parameter files by default: our own diagnostics, completion and hover already
// cover what it says, and VS Code's JSON service would report every unknown, missing or mistyped input a
// second time and offer every input twice.
import * as vscode from 'vscode';
import { parameterSchema } from '../platform/functions/parameterSchema';
import type { Services } from '../services';
import { functionNameProblem } from './parameterFile';

export const SCHEMA_SCHEME = 'datagrok-schema';

export function schemaUri(functionName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEMA_SCHEME, path: `/${functionName}.schema.json` });
}

export class SchemaProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly services: Pick<Services, 'platform'>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const name = decodeURIComponent(uri.path.replace(/^\//, '')).replace(/\.schema\.json$/, '');
    const problem = functionNameProblem(name);
    if (problem) throw new Error(`${uri.toString(true)} names no function: ${problem}`);
    const func = await this.services.platform.catalog.funcOrLastKnown(name);
    return `${JSON.stringify(parameterSchema(func), null, 2)}\n`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
