// Showing what a function returned: read-only result documents beside the parameter file (a JSON
// document `Demo:Add — result`, each dataframe output in the data view `Demo:Filter — result.csv`), a
// short summary in a notification with "Open Result", and the result in the log.
import * as vscode from 'vscode';
import type { ResultFileSystem } from './resultDocuments';
import { type ResultPart, resultView } from './resultParts';

/** The data view's custom editor (src/dataView, opened through VS Code: features do not import each other). */
const DATA_VIEW = 'datagrok.dataView';

/** At most this much of a result goes to the log. */
const LOGGED_RESULT = 4000;

export interface ShownResult {
  /** The result documents, in order (the JSON one first, then the dataframes). */
  documents: vscode.TextDocument[];
  /** The one-line summary shown in the notification. */
  summary: string;
  parts: ResultPart[];
}

/** The visible editor column of the parameter file, when it is visible. */
function columnOf(fileUri: vscode.Uri | undefined): vscode.ViewColumn | undefined {
  if (!fileUri) return undefined;
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === fileUri.toString())?.viewColumn;
}

/** Opens a run's result documents (beside the parameter file when it is visible). */
export async function openResultDocuments(results: ResultFileSystem, runId: string, parts: readonly ResultPart[], fileUri?: vscode.Uri): Promise<vscode.TextDocument[]> {
  const uris = results.put(runId, parts);
  const besideFile = columnOf(fileUri) !== undefined;
  const documents: vscode.TextDocument[] = [];
  for (const [i, uri] of uris.entries()) {
    let document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== parts[i].language) {
      document = await vscode.languages.setTextDocumentLanguage(document, parts[i].language).then(
        (d) => d,
        () => document,
      );
    }
    const show = { preview: false, viewColumn: besideFile ? vscode.ViewColumn.Beside : undefined, preserveFocus: besideFile || i > 0 };
    // A dataframe opens in the data view (a grid); its text stays open as a document (Open as Text shows it).
    if (parts[i].language === 'csv') await vscode.commands.executeCommand('vscode.openWith', uri, DATA_VIEW, show);
    else await vscode.window.showTextDocument(document, show);
    documents.push(document);
  }
  return documents;
}

export interface ShowResultContext {
  results: ResultFileSystem;
  log: vscode.LogOutputChannel;
}

export async function showFunctionResult(ctx: ShowResultContext, runId: string, functionName: string, result: unknown, fileUri?: vscode.Uri, outputNames?: readonly string[]): Promise<ShownResult> {
  const view = resultView(functionName, result, outputNames);
  const logged = view.oneLine.length > LOGGED_RESULT ? `${view.oneLine.slice(0, LOGGED_RESULT)}… (${view.oneLine.length} characters)` : view.oneLine;
  ctx.log.info(`${functionName} → ${logged}`);
  const documents = await openResultDocuments(ctx.results, runId, view.parts, fileUri);
  const open = 'Open Result';
  // Not awaited: a programmatic run never waits on the user.
  void vscode.window.showInformationMessage(`${functionName} → ${view.summary}`, open).then((choice) => {
    if (choice === open) void openResultDocuments(ctx.results, runId, view.parts, fileUri);
  });
  return { documents, summary: view.summary, parts: view.parts };
}
