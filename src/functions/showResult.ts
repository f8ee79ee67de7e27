// Showing what a function returned: dataframe outputs as CSV documents, a short result in a
// notification, anything larger in a JSON document; the whole result in the log.
import * as vscode from 'vscode';
import { csvShape, looksLikeCsv, outputsOf } from './outputs';

/** Results up to this many characters (one line) are shown in a notification. */
const SHORT_RESULT = 200;
/** At most this much of a result goes to the log. */
const LOGGED_RESULT = 4000;

function describeDataframe(csv: string): string {
  const { rows, columns } = csvShape(csv);
  return `dataframe: ${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'} × ${columns} column${columns === 1 ? '' : 's'}, opened as CSV`;
}

/** Opens the dataframe outputs as untitled CSV documents; returns their documents in output order. */
async function openDataframes(outputs: unknown[]): Promise<vscode.TextDocument[]> {
  const documents: vscode.TextDocument[] = [];
  for (const output of outputs) {
    if (!looksLikeCsv(output)) continue;
    const document = await vscode.workspace.openTextDocument({ language: 'csv', content: output });
    await vscode.window.showTextDocument(document, { preview: false, preserveFocus: documents.length > 0 });
    documents.push(document);
  }
  return documents;
}

export interface ShownResult {
  /** The CSV documents opened for dataframe outputs. */
  dataframes: vscode.TextDocument[];
  /** The JSON document opened for a large result, if any. */
  json?: vscode.TextDocument;
}

export async function showFunctionResult(functionName: string, result: unknown, log: vscode.LogOutputChannel): Promise<ShownResult> {
  const several = Array.isArray(result);
  const outputs = outputsOf(result);
  const dataframes = await openDataframes(outputs);
  // Dataframes are described, not repeated, in what is shown as text.
  const described = outputs.map((o) => (looksLikeCsv(o) ? `<${describeDataframe(o)}>` : o));
  const summary = several ? described : described[0];
  const oneLine = summary === undefined ? 'no value' : JSON.stringify(summary);
  log.info(`${functionName} → ${oneLine.length > LOGGED_RESULT ? `${oneLine.slice(0, LOGGED_RESULT)}… (${oneLine.length} characters)` : oneLine}`);

  const shown: ShownResult = { dataframes };
  const allDataframes = outputs.length > 0 && dataframes.length === outputs.length;
  if (allDataframes) {
    const what = described.map((d) => String(d).replace(/^<|>$/g, '')).join('; ');
    void vscode.window.showInformationMessage(`${functionName} returned ${several ? `${outputs.length} outputs: ` : ''}${what}.`);
  } else if (oneLine.length <= SHORT_RESULT) {
    const label = several ? `${outputs.length} outputs: ` : '';
    void vscode.window.showInformationMessage(`${functionName} → ${label}${oneLine}`);
  } else {
    const content = several
      ? JSON.stringify(Object.fromEntries(described.map((o, i) => [`output ${i + 1}`, o])), null, 2)
      : JSON.stringify(summary, null, 2);
    shown.json = await vscode.workspace.openTextDocument({ language: 'json', content });
    await vscode.window.showTextDocument(shown.json, { preview: false, preserveFocus: dataframes.length > 0 });
    void vscode.window.showInformationMessage(`${functionName} returned ${several ? `${outputs.length} outputs` : 'a large value'}: opened as JSON.`);
  }
  return shown;
}
