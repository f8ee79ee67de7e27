// The scripts' commands: ▶ Run on Datagrok (the editor's text as a temporary copy, called through
// datagrok.functions.run so results, dataframe outputs and the Runs view are those of any run, then
// deleted), Push (create or update by the header's name, after a plan that says which) and a parameter
// file for a script.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput, DatagrokError } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { readUserText } from '../core/documents';
import { uriOption } from '../core/options';
import { declaredScript, parseParameterFile } from '../core/parameterFile';
import { resolveScriptUri, scriptPrefix } from '../core/scriptFiles';
import { type LocalScript, pushPlan, pushScript } from '../platform/scripts/entities';
import { parseScriptHeader } from '../platform/scripts/header';
import { headerProblems, headerSignature, initialInputs } from '../platform/scripts/signature';
import { parameterFileText } from '../platform/functions/signature';
import type { Services } from '../services';
import type { HeaderDiagnostics } from './headerDiagnostics';
import { askScriptInputs } from './scriptInputs';

export interface RunScriptOptions {
  /** The script (or a parameter file whose "$script" names it); default: the active editor. */
  uri?: vscode.Uri | string;
  /** Inputs by name, over the parameter file's and the header's initial values. */
  params?: Record<string, unknown>;
}

export interface ScriptsContext {
  services: Services;
  diagnostics: HeaderDiagnostics;
}

const isJson = (uri: vscode.Uri) => /\.jsonc?$/i.test(uri.path) || vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.languageId.startsWith('json');

function activeUri(): vscode.Uri | undefined {
  return vscode.window.activeTextEditor?.document.uri;
}

function targetUri(inv: CommandInvocation<{ uri?: vscode.Uri | string }>): vscode.Uri {
  const uri = inv.options ? uriOption(inv.options.uri, 'uri') : inv.arg instanceof vscode.Uri ? inv.arg : undefined;
  const target = uri ?? activeUri();
  if (!target) throw badInput('No script: open a script or query with a Datagrok header, or pass { uri }.');
  return target;
}

/** The script's text (unsaved edits included) with its header; bad input when it has none. */
export async function readLocalScript(uri: vscode.Uri): Promise<LocalScript> {
  const fileName = path.posix.basename(uri.path);
  const what = `"${fileName}"`;
  const code = await readUserText(uri, what);
  const languageId = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.languageId ?? '';
  const prefix = scriptPrefix(languageId, uri.path);
  const header = prefix ? parseScriptHeader(code, prefix) : undefined;
  if (!header)
    throw badInput(`${what} is not a Datagrok script or query: its first comment block needs a header ("#name:", "#language:", "#input:"…; "//" in JavaScript, "--" in SQL).`);
  const errors = headerProblems(header).filter((p) => p.severity === 'error');
  if (errors.length > 0) throw badInput(`Fix the header of ${what} first: line ${errors[0].line + 1}: ${errors[0].message}`);
  return { header, code, fileName };
}

/** The parameter file beside a script (`<name>.datagrok.json`), when there is one. */
async function besideParameterFile(script: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (script.scheme === 'untitled') return undefined;
  const candidate = vscode.Uri.joinPath(script, '..', `${path.posix.basename(script.path).replace(/\.[^.]+$/, '')}.datagrok.json`);
  try {
    await vscode.workspace.fs.stat(candidate);
    return candidate;
  } catch {
    return undefined;
  }
}

const lineOf = (message: string) => {
  const m = /\bline (\d+)\b/i.exec(message);
  return m ? Number(m[1]) : undefined;
};

/** datagrok.scripts.run: the result, as datagrok.functions.run returns it; the saved function is untouched. */
export async function runScriptCommand(c: ScriptsContext, inv: CommandInvocation<RunScriptOptions>): Promise<unknown> {
  const options = inv.options;
  if (options?.params !== undefined && (options.params === null || typeof options.params !== 'object' || Array.isArray(options.params))) {
    throw badInput('The option "params" must be an object whose keys are the script\'s inputs.');
  }
  const given = targetUri(inv);
  let scriptUri = given;
  let parameterFile: vscode.Uri | undefined;
  if (isJson(given)) {
    const declared = declaredScript(await readUserText(given));
    if (!declared) throw badInput(`"${path.posix.basename(given.path)}" names no script: add "$script": "<path of the script>".`);
    parameterFile = given;
    scriptUri = resolveScriptUri(given, declared.path);
  } else parameterFile = await besideParameterFile(given);
  const local = await readLocalScript(scriptUri);
  const name = local.header.value('name')!;
  // From the palette or the lens: each input is asked (or the parameter file beside the script is chosen).
  const asked = inv.interactive && !isJson(given) ? await askScriptInputs(local.header, name, parameterFile, () => c.services.platform.catalog.listTables('')) : undefined;
  if (asked) parameterFile = asked.parameterFile;
  const fileParams = parameterFile ? parseParameterFile(await readUserText(parameterFile), `"${path.posix.basename(parameterFile.path)}"`).params : {};
  const initial = Object.fromEntries(Object.entries(initialInputs(local.header)).filter(([k]) => !(k in fileParams)));
  const params = asked && !asked.parameterFile ? asked.params : { ...initial, ...(options?.params ?? {}) };
  const client = await c.services.connection.client();
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === scriptUri.toString());
  if (document) c.diagnostics.clearRunError(document.uri);
  let temporary = '';
  try {
    const source = { uri: scriptUri.toString(), fileName: local.fileName, prefix: local.header.prefix, code: local.code };
    const ran = await c.services.platform.scriptRuns.run(
      client,
      source,
      (callName) => {
        temporary = callName.replace(/^.*:/, '');
        c.services.log.info(`Running ${local.fileName} as the temporary script ${callName}`);
        return Promise.resolve(vscode.commands.executeCommand('datagrok.functions.run', { function: callName, params, ...(parameterFile ? { uri: parameterFile } : {}) }));
      },
      (left, e) => {
        const message = `The temporary script ${left} could not be deleted from the server (${e instanceof Error ? e.message : String(e)}): delete it in Datagrok.`;
        c.services.log.warn(message);
        void vscode.window.showWarningMessage(message);
      },
    );
    return ran.result;
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const message = temporary ? raw.split(temporary).join(name) : raw;
    if (document && !(error instanceof UserCancelled) && !(error instanceof DatagrokError && error.kind === 'cancelled')) {
      const line = lineOf(message);
      c.diagnostics.showRunError(document, line, message);
      // From the editor: the script's line the error names, shown (its diagnostic says why).
      if (inv.interactive && line !== undefined && line >= 1 && line <= document.lineCount) {
        const at = document.lineAt(line - 1).range;
        const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
        if (editor) {
          editor.selection = new vscode.Selection(at.start, at.end);
          editor.revealRange(at, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        }
      }
    }
    // From the editor, datagrok.functions.run has shown the failure already.
    if (inv.interactive) throw new UserCancelled();
    throw error instanceof DatagrokError ? new DatagrokError(error.kind, message, { cause: error }) : new Error(message);
  }
}

/** datagrok.scripts.push: `{ id, name }` of the saved script or query. */
export async function pushScriptCommand(c: ScriptsContext, inv: CommandInvocation<{ uri?: vscode.Uri | string }>): Promise<{ id: string; name: string }> {
  const uri = targetUri(inv);
  const local = await readLocalScript(uri);
  const client = await c.services.connection.client();
  const plan = await pushPlan(client, local);
  const noun = plan.kind === 'query' ? 'query' : 'script';
  if (inv.interactive) {
    const go = {
      label: plan.action === 'create' ? `$(add) Create the ${noun} ${plan.name}` : `$(cloud-upload) Update the ${noun} ${plan.existing?.nqName ?? plan.name}`,
      detail:
        plan.action === 'create'
          ? `The server has no ${noun} named ${plan.name}: a new one is saved.`
          : `Replaces the code of the saved ${noun} (ID ${plan.existing?.id}${plan.existing?.updatedOn ? `, last changed ${plan.existing.updatedOn}` : ''}) with ${local.fileName} as it is in the editor.`,
    };
    const picked = await vscode.window.showQuickPick([go], {
      title: `Push ${local.fileName} to ${new URL(client.baseUrl).host}`,
      placeHolder: plan.action === 'create' ? 'Create' : 'Update',
      ignoreFocusOut: true,
    });
    if (!picked) throw new UserCancelled();
  }
  const saved = await inv.withProgress(`Pushing ${plan.name}`, (_p, signal) => pushScript(client, local, plan, signal));
  const result = { id: saved.id, name: saved.nqName ?? saved.name };
  c.services.log.info(`${plan.action === 'create' ? 'Created' : 'Updated'} ${noun} ${result.name} (${result.id}) from ${local.fileName}`);
  void vscode.window.showInformationMessage(`${plan.action === 'create' ? 'Created' : 'Updated'} the ${noun} ${result.name} on the server.`);
  return result;
}

/** datagrok.scripts.newParameterFile: the parameter file for a script (opened; an existing one is not overwritten). */
export async function newScriptParameterFile(_c: ScriptsContext, inv: CommandInvocation<{ uri?: vscode.Uri | string }>): Promise<vscode.Uri> {
  const uri = targetUri(inv);
  const local = await readLocalScript(uri);
  const func = headerSignature(local.header, local.fileName);
  let target: vscode.Uri;
  if (uri.scheme === 'untitled') {
    const document = await vscode.workspace.openTextDocument({ language: 'jsonc', content: parameterFileText(func, { key: '$script', value: uri.toString() }) });
    target = document.uri;
  } else {
    target = vscode.Uri.joinPath(uri, '..', `${local.fileName.replace(/\.[^.]+$/, '')}.datagrok.json`);
    const exists = await vscode.workspace.fs.stat(target).then(
      () => true,
      () => false,
    );
    if (!exists) await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(parameterFileText(func, { key: '$script', value: `./${local.fileName}` })));
  }
  await vscode.window.showTextDocument(target, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  return target;
}
