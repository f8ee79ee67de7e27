// The "▶ Run Package:Name" CodeLens above parameter files, beside it the function's one-line
// description (from the catalog's signature: the request diagnostics make anyway, shared, none when
// cached; nothing while signed out or offline without a cached one), and the
// `datagrok.editorIsParameterFile` context key that shows the Run button in the editor title. Cheap: a
// JSON text is parsed only when it mentions "$function".
import * as path from 'node:path';
import * as vscode from 'vscode';
import { uiArguments } from '../core/commands';
import { shortDescription } from './functionDisplay';
import { declaredFunction, declaredScript, PARAMETER_FILE_NAME } from './parameterFile';

const CONTEXT_KEY = 'datagrok.editorIsParameterFile';
export const PARAMETER_FILE_SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];

function isJson(document: vscode.TextDocument): boolean {
  return document.languageId === 'json' || document.languageId === 'jsonc';
}

function hasParameterFileName(document: vscode.TextDocument): boolean {
  return PARAMETER_FILE_NAME.test(path.posix.basename(document.uri.path));
}

export function isParameterFile(document: vscode.TextDocument): boolean {
  return isJson(document) && (hasParameterFileName(document) || declaredFunction(document.getText()) !== undefined || declaredScript(document.getText()) !== undefined);
}

export class ParameterFileLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  /** `describe`: a function's description, or undefined when it cannot be known now (never throws). */
  constructor(private readonly describe?: (name: string) => Promise<string | undefined>) {}

  /** The descriptions may have changed (sign-in, another server, a catalog reload). */
  refresh(): void {
    this.changed.fire();
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (!isJson(document)) return [];
    const declared = declaredFunction(document.getText());
    const top = new vscode.Range(0, 0, 0, 0);
    const script = declared ? undefined : declaredScript(document.getText());
    if (script) {
      // A local script's inputs: the script's own command runs its editor text with them.
      return [
        new vscode.CodeLens(top, {
          title: `▶ Run ${path.posix.basename(script.path)} on Datagrok`,
          command: 'datagrok.scripts.run',
          arguments: uiArguments(document.uri),
          tooltip: `Run ${script.path} (its text, unsaved edits included) on the Datagrok server with this file's inputs`,
        }),
      ];
    }
    if (declared) {
      const lenses = [
        new vscode.CodeLens(top, {
          title: `▶ Run ${declared.name}`,
          command: 'datagrok.functions.run',
          arguments: uiArguments(document.uri),
          tooltip: `Call ${declared.name} on the Datagrok server with this file's inputs`,
        }),
      ];
      const description = await this.describe?.(declared.name).catch(() => undefined);
      const line = shortDescription(description);
      // A lens without a command is text: the description, whole in the tooltip.
      if (line) lenses.push(new vscode.CodeLens(top, { title: line, command: '', tooltip: description }));
      return lenses;
    }
    if (hasParameterFileName(document)) {
      return [
        new vscode.CodeLens(top, {
          title: '▶ Run Function…',
          command: 'datagrok.functions.run',
          arguments: uiArguments(document.uri),
          tooltip: "Choose the function to call with this file's inputs",
        }),
      ];
    }
    return [];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Keeps `datagrok.editorIsParameterFile` in step with the active editor (debounced while typing). */
export function trackParameterFileContext(): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  let last: boolean | undefined;
  const update = () => {
    const document = vscode.window.activeTextEditor?.document;
    const value = document !== undefined && isParameterFile(document);
    if (value !== last) {
      last = value;
      void vscode.commands.executeCommand('setContext', CONTEXT_KEY, value);
    }
  };
  update();
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor(update),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== vscode.window.activeTextEditor?.document) return;
      clearTimeout(timer);
      timer = setTimeout(update, 300);
    }),
    // A document's language can change (e.g. plain text → JSON) without the editor changing.
    vscode.workspace.onDidOpenTextDocument(update),
    { dispose: () => clearTimeout(timer) },
  );
}
