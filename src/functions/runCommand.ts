// datagrok.functions.run: a platform function called with the inputs of a parameter file (or given
// parameters), its result shown and returned as parsed JSON.
//
// Where the inputs come from (options):
//   { uri }              the parameter file (its editor text when open, unsaved edits included);
//   { uri, params }      the file's inputs with `params` merged over them (shallow: a key in `params` wins);
//   { params }           only `params`: no file is read;
//   {} / no uri, params  the active editor's parameter file.
// `function` names the function and wins over the file's "$function"; without either, a call with
// options is refused (the palette asks, and offers to add "$function" to the file).
import { offerPickTable } from './pickTableAction';
import * as path from 'node:path';
// The ESM build: the package's UMD main requires './impl/format' at run time, which the bundle lacks.
import * as vscode from 'vscode';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput, DatagrokError } from '../api/errors';
import { hostOf } from '../api/names';
import { readUserText } from '../core/documents';
import type { Services } from '../services';
import { uriOption } from '../core/options';
import { jsoncParser } from '../platform/lazyModules';
import type { RecentEntities } from '../platform/recent';
import { pushCsvParameters } from '../core/csvParameters';
import { checkFunctionName, FUNCTION_KEY, functionNameProblem, type ParameterFile, parseParameterFile, withoutToolingKeys } from './parameterFile';
import type { ResultFileSystem } from './resultDocuments';
import { shownRun } from './resultParts';
import { scriptRaised } from '../platform/scripts/scriptErrors';
import { scriptRunLabel } from '../platform/scripts/runs';
import { showFunctionResult } from './showResult';
import { pickLoading } from '../ui/loadingPick';
import { BACK } from '../ui/quickSteps';

export interface RunFunctionOptions {
  /** The parameter file: a Uri, a URI string or a path. */
  uri?: vscode.Uri | string;
  /** `Package:Name`; wins over the file's "$function". */
  function?: string;
  /** Inputs by name: used alone, or merged over the file's when `uri` is given too. */
  params?: Record<string, unknown>;
}

const JSON_LANGUAGES = new Set(['json', 'jsonc']);

/** A run as it finished: what the Runs view remembers. */
export interface FinishedRun {
  id: string;
  functionName: string;
  /** The parameter file, when there was one. */
  fileUri?: vscode.Uri;
  /** The inputs as sent ("$csv" inputs replaced by the pushed table's ID). */
  inputs: Record<string, unknown>;
  startedAt: number;
  durationMs: number;
  outcome: 'ok' | 'failed' | 'cancelled';
  /** The result (ok), or the error message (failed). */
  result?: unknown;
  error?: string;
  summary: string;
}

/** Where results are shown and runs remembered. */
export interface RunServices {
  readonly results: ResultFileSystem;
  onDidRun?(run: FinishedRun): Promise<void> | void;
}

export function newRunId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function activeJsonEditor(): vscode.Uri | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document && JSON_LANGUAGES.has(document.languageId) ? document.uri : undefined;
}

async function askParameterFile(): Promise<vscode.Uri> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Run Function: choose a parameter file',
    canSelectMany: false,
    filters: { 'Parameter files': ['json', 'jsonc'] },
  });
  if (!picked?.[0]) throw new UserCancelled();
  return picked[0];
}

async function readParameterFile(uri: vscode.Uri, what: string): Promise<ParameterFile> {
  const text = await readUserText(uri, what);
  return parseParameterFile(text, what);
}

/** Adds "$function" as the file's first key: an edit the user sees and can undo, not a rewrite. */
async function addFunctionKey(uri: vscode.Uri, functionName: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const text = document.getText();
  const edits = jsoncParser().modify(text.trim() === '' ? '{}' : text, [FUNCTION_KEY], functionName, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n' },
    getInsertionIndex: () => 0,
  });
  const edit = new vscode.WorkspaceEdit();
  if (text.trim() === '') {
    edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(text.length)), `{\n  "${FUNCTION_KEY}": ${JSON.stringify(functionName)}\n}\n`);
  } else {
    for (const e of edits) edit.replace(uri, new vscode.Range(document.positionAt(e.offset), document.positionAt(e.offset + e.length)), e.content);
  }
  await vscode.workspace.applyEdit(edit);
}

interface FunctionItem extends vscode.QuickPickItem {
  name: string;
}

/** The function to run: picked from the server's functions as they load, or typed (a server may list none). */
async function chooseFunction(services: Services, prompt: string): Promise<string | undefined> {
  const picked = await pickLoading<FunctionItem>({
    title: 'Run Function',
    what: 'functions',
    server: services.connection.activeHost(),
    placeholder: `${prompt} Pick one, or type Package:Name`,
    log: services.log,
    load: async () =>
      (await services.platform.catalog.searchFunctions('')).map((f) => ({
        label: f.nqName,
        description: f.description,
        detail: f.kind === 'function' ? undefined : f.kind,
        name: f.nqName,
      })),
    // A typed Package:Name runs too (a server without the function list, or one not listed).
    arrange: (loaded, typed) => {
      const exact = loaded.some((f) => f.name.toLowerCase() === typed.toLowerCase());
      const own = typed && !exact && !functionNameProblem(typed) ? [{ label: `$(edit) ${typed}`, description: 'the function you typed', name: typed, alwaysShow: true }] : [];
      return [...loaded, ...own];
    },
  });
  return picked === BACK ? undefined : picked.name;
}

async function askFunction(services: Services, fileUri: vscode.Uri | undefined, what: string): Promise<string> {
  const name = await chooseFunction(services, `${fileUri ? `${what} does not name a function. ` : ''}Which function?`);
  if (name === undefined) throw new UserCancelled();
  if (fileUri) {
    const add = { label: `$(add) Add "${FUNCTION_KEY}": "${name}" to the file and run` };
    const once = { label: '$(play) Run once, without changing the file' };
    const choice = await vscode.window.showQuickPick([add, once], { title: `Run ${name}`, ignoreFocusOut: true });
    if (!choice) throw new UserCancelled();
    if (choice === add) await addFunctionKey(fileUri, name);
  }
  return name;
}

async function confirmUntrusted(functionName: string, what: string, host: string): Promise<void> {
  const run = 'Run';
  const choice = await vscode.window.showWarningMessage(
    `Run ${functionName} from ${what}? This workspace is not trusted.`,
    { modal: true, detail: `The file's values are sent to ${host} as the function's inputs, and any "$csv" files it names are uploaded. Run it only if you trust this file.` },
    run,
  );
  if (choice !== run) throw new UserCancelled();
}

function checkOptions(options: RunFunctionOptions): void {
  // A program may name a function as the server does: `Package:Name`, or a bare name the server resolves
  // (a script saved outside any package, such as the temporary copy a script's run calls).
  if (options.function !== undefined && !(typeof options.function === 'string' && /^[^\s/\\:]+$/.test(options.function.trim())))
    checkFunctionName(options.function, 'the option "function"');
  if (options.params !== undefined && !isPlainObject(options.params)) {
    throw badInput('The option "params" must be an object whose keys are the function\'s inputs.');
  }
}

export async function runFunctionCommand(services: Services, recent: RecentEntities, runs: RunServices, inv: CommandInvocation<RunFunctionOptions>): Promise<unknown> {
  const options = inv.options;
  let fileUri: vscode.Uri | undefined;
  if (options) {
    checkOptions(options);
    fileUri = uriOption(options.uri, 'uri') ?? (options.params === undefined ? activeJsonEditor() : undefined);
    if (!fileUri && options.params === undefined) {
      throw badInput('Nothing to run: pass { uri } (a parameter file) or { function, params }, or open a parameter file in the editor.');
    }
  } else {
    fileUri = inv.arg instanceof vscode.Uri ? inv.arg : (activeJsonEditor() ?? (await askParameterFile()));
  }
  const what = fileUri ? `"${path.posix.basename(fileUri.path)}"` : 'the parameters';
  const file = fileUri ? await readParameterFile(fileUri, what) : undefined;
  const params = { ...(file?.params ?? {}), ...(options?.params ? withoutToolingKeys(options.params) : {}) };

  let functionName = options?.function !== undefined ? options.function.trim() : file?.functionName;
  if (!functionName) {
    if (!inv.interactive) {
      throw badInput(`${what} does not name a function: add "${FUNCTION_KEY}": "Package:Name" to it, or pass { function: "Package:Name" }.`);
    }
    functionName = await askFunction(services, fileUri, what);
  }
  const client = await services.connection.client();
  if (fileUri && vscode.workspace.isTrusted === false) {
    if (!inv.interactive) {
      throw badInput(`Refused to run ${functionName} from ${what}: this workspace is not trusted. Trust the workspace, or run the file from the editor and confirm.`);
    }
    await confirmUntrusted(functionName, what, hostOf(client.baseUrl));
  }
  const name = functionName;
  const baseDir = fileUri && fileUri.scheme !== 'untitled' ? vscode.Uri.joinPath(fileUri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
  const started = Date.now();
  const id = newRunId();
  // The source of a script's text run (its temporary copy is called now), to show it by the script's name.
  const script = services.platform.scriptRuns.get(name);
  const shownName = script ? scriptRunLabel(script).name : name;
  let inputs: Record<string, unknown> = params;
  const finish = async (outcome: FinishedRun['outcome'], rest: Partial<FinishedRun>) => {
    try {
      await runs.onDidRun?.({ id, functionName: name, fileUri, inputs, startedAt: started, durationMs: Date.now() - started, outcome, summary: '', ...rest });
    } catch (e) {
      services.log.warn(`Remembering the run of ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  let result: unknown;
  try {
    result = await inv.withProgress(`Running ${shownName}`, async (progress, signal) => {
      const sent = await pushCsvParameters(client, params, baseDir, recent, services.log, progress, signal);
      inputs = sent;
      progress.message('waiting for the server');
      return client.callFunction(name, sent, { signal });
    });
  } catch (caught) {
    // A script's text run (▶ Run on Datagrok) whose code raised: the script's error, under its own name.
    const error = (script && scriptRaised(caught, { name: shownName, called: name.replace(/^.*:/, ''), fileName: script.fileName })) || caught;
    const cancelled = error instanceof UserCancelled || (error instanceof DatagrokError && error.kind === 'cancelled');
    const message = error instanceof Error ? error.message : String(error);
    await finish(cancelled ? 'cancelled' : 'failed', { error: cancelled ? undefined : message, summary: cancelled ? 'cancelled' : message });
    throw offerPickTable(error, fileUri);
  }
  const durationMs = Date.now() - started;
  services.log.info(`Ran ${name}${fileUri ? ` from ${fileUri.toString(true)}` : ''} in ${durationMs} ms`);
  const how = await shownRun(services.platform.catalog, name, script);
  const shown = await showFunctionResult({ results: runs.results, log: services.log }, id, how.name, result, fileUri, how.outputNames, inputs, how.labelled);
  await finish('ok', { result, summary: shown.summary, durationMs });
  return result;
}
