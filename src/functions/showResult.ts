// Showing what a function returned: read-only result documents beside the parameter file (a JSON
// document `Demo:Add — result`, each dataframe output in the data view `Demo:Filter — result.csv`), a
// short summary in a notification with "Open Result", and the result in the log.
import * as vscode from 'vscode';
import { RESULT_SCHEME, type ResultFileSystem } from './resultDocuments';
import { resultFolderName } from './resultLabels';
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

/** The open tab of an earlier result document with this title (`Demo:Add — result`), if any. */
function earlierResultTab(name: string): vscode.Tab | undefined {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const uri = earlierTabUri(tab);
      if (uri?.scheme === RESULT_SCHEME && uri.path.slice(uri.path.lastIndexOf('/') + 1) === name) return tab;
    }
  }
  return undefined;
}

function earlierTabUri(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  return input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
}

/**
 * Opens a run's result documents (beside the parameter file when it is visible). A result already open
 * under the same title (an earlier run of the function, Run Again) is replaced in its own editor group:
 * one tab per result, not a second one with the same title elsewhere. `inputs` name the documents'
 * folder (the breadcrumbs): `Demo:Add(a: 2, b: 3)`.
 */
export async function openResultDocuments(
  results: ResultFileSystem,
  runId: string,
  parts: readonly ResultPart[],
  fileUri?: vscode.Uri,
  functionName?: string,
  inputs?: Record<string, unknown>,
): Promise<vscode.TextDocument[]> {
  const uris = results.put(runId, parts, functionName && inputs ? resultFolderName(functionName, inputs) : undefined);
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
    const earlier = earlierResultTab(parts[i].name);
    const show = {
      preview: false,
      viewColumn: earlier ? earlier.group.viewColumn : besideFile ? vscode.ViewColumn.Beside : undefined,
      preserveFocus: earlier !== undefined || besideFile || i > 0,
    };
    // A dataframe opens in the data view (a grid); its text stays open as a document (Open as Text shows it).
    if (parts[i].language === 'csv') await vscode.commands.executeCommand('vscode.openWith', uri, DATA_VIEW, show);
    else await vscode.window.showTextDocument(document, show);
    // The earlier run's tab goes once the new one is beside it (read-only: nothing to lose). It is looked
    // up again: a Tab object taken before the new tab opened is stale in older hosts (1.103 ignores it).
    const staleUri = earlier ? earlierTabUri(earlier)?.toString() : undefined;
    if (staleUri && staleUri !== uri.toString()) {
      const stale = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => earlierTabUri(t)?.toString() === staleUri);
      if (stale.length > 0) await vscode.window.tabGroups.close(stale, true).then(undefined, () => undefined);
    }
    documents.push(document);
  }
  return documents;
}

export interface ShowResultContext {
  results: ResultFileSystem;
  log: vscode.LogOutputChannel;
}

export async function showFunctionResult(
  ctx: ShowResultContext,
  runId: string,
  functionName: string,
  result: unknown,
  fileUri?: vscode.Uri,
  outputNames?: readonly string[],
  inputs?: Record<string, unknown>,
  labelled = false,
): Promise<ShownResult> {
  const view = resultView(functionName, result, outputNames, { labelled });
  const logged = view.oneLine.length > LOGGED_RESULT ? `${view.oneLine.slice(0, LOGGED_RESULT)}… (${view.oneLine.length} characters)` : view.oneLine;
  ctx.log.info(`${functionName} → ${logged}`);
  const documents = await openResultDocuments(ctx.results, runId, view.parts, fileUri, functionName, inputs);
  const open = 'Open Result';
  // Not awaited: a programmatic run never waits on the user.
  void vscode.window.showInformationMessage(`${functionName} → ${view.summary}`, open).then((choice) => {
    if (choice === open) void openResultDocuments(ctx.results, runId, view.parts, fileUri, functionName, inputs);
  });
  return { documents, summary: view.summary, parts: view.parts };
}
