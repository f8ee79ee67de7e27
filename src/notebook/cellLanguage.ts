// The language features of a Datagrok notebook's cells: a function-call cell's completion, hover,
// signature help and checks; a script or query cell's variables (its header's own features are the
// scripts feature's, registered for the cells too); a parameter-object cell's tables from the cells above
// (its parameter file's features are the functions feature's).
import * as vscode from 'vscode';
import { SCRIPT_CELL_SELECTOR } from '../core/scriptFiles';
import { CALL_LANGUAGE } from '../platform/notebook/cells';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';
import type { Services } from '../services';
import type { CellFactsSource } from './cellFacts';
import { NotebookCellChecks } from './cellChecks';
import { CallCellCompletion, CallCellHover, CallCellSignatureHelp } from './callCellLanguage';
import { ParamCellCompletion } from './paramCellCompletion';
import { ScriptCellCompletion, ScriptCellHover } from './scriptCellLanguage';
import type { NotebookSessions } from './session';

const CALL_CELLS: vscode.DocumentSelector = { notebookType: NOTEBOOK_TYPE, language: CALL_LANGUAGE };
const PARAMETER_CELLS: vscode.DocumentSelector = ['json', 'jsonc'].map((language) => ({ notebookType: NOTEBOOK_TYPE, language }));

export function registerCellLanguage(services: Services, sessions: NotebookSessions): vscode.Disposable[] {
  const source: CellFactsSource = { connection: services.connection, platform: services.platform, sessions };
  return [
    vscode.languages.registerCompletionItemProvider(CALL_CELLS, new CallCellCompletion(source), ':', '(', ','),
    vscode.languages.registerHoverProvider(CALL_CELLS, new CallCellHover(source)),
    vscode.languages.registerSignatureHelpProvider(CALL_CELLS, new CallCellSignatureHelp(source), '(', ','),
    vscode.languages.registerCompletionItemProvider(SCRIPT_CELL_SELECTOR, new ScriptCellCompletion(source), ' '),
    vscode.languages.registerCompletionItemProvider(PARAMETER_CELLS, new ParamCellCompletion(source), '"'),
    vscode.languages.registerHoverProvider(SCRIPT_CELL_SELECTOR, new ScriptCellHover(source)),
    new NotebookCellChecks({ ...source, connection: services.connection }, sessions.onDidChange),
  ];
}
