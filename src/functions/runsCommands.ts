// The Runs view's actions on a remembered run: Run Again, Open Result, Open Parameter File, Save Result
// As…, Push Result as Table, Save as Parameter File, Copy as curl / Python, Remove, Clear. Each takes a
// run item, `{ id }` from a script, or (from the palette) asks which run.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { hostOf } from '../api/names';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { uriOption } from '../core/options';
import { curlText, pythonText } from '../platform/runs/snippets';
import type { RunsStore, StoredRun } from '../platform/runs/store';
import { isTemporaryName } from '../platform/scripts/entities';
import type { Services } from '../services';
import { resultUri } from './resultDocuments';
import { type ResultPart, runResultView } from './resultParts';
import { type PushResultOptions, pushResult, type SaveResultOptions, saveResultAs } from './resultCommands';
import { type RunServices, runFunctionCommand } from './runCommand';
import { runScriptAgain } from './runScriptAgain';
import { duration, fileLabel, RunNode, runLabel, scriptOfRun, when } from './runsView';
import { openResultDocuments } from './showResult';

export interface RunsContext {
  readonly services: Services;
  readonly store: RunsStore;
  readonly runs: RunServices;
}

export interface RunOptions {
  /** The run's ID (as in the Runs view; `rememberedRuns` in tests). */
  id?: string;
}

function server(c: RunsContext): string {
  return c.services.connection.baseUrl();
}

async function pickRun(c: RunsContext, title: string, filter: (r: StoredRun) => boolean = () => true): Promise<StoredRun> {
  const runs = c.store.list(server(c)).filter(filter);
  if (runs.length === 0) throw badInput(`No remembered run on ${hostOf(server(c))} to use: run a function first.`);
  const picked = await vscode.window.showQuickPick(
    runs.map((run) => ({
      label: runLabel(run),
      description: [fileLabel(run), when(run.startedAt), duration(run.durationMs)].filter(Boolean).join(' · '),
      detail: `${run.outcome}: ${run.summary}`,
      run,
    })),
    { title, matchOnDescription: true, matchOnDetail: true },
  );
  if (!picked) throw new UserCancelled();
  return picked.run;
}

/** The run a command is about: a view item, `{ id }`, or (palette) the one the user picks. */
async function runOf(c: RunsContext, inv: CommandInvocation<RunOptions>, title: string, filter?: (r: StoredRun) => boolean): Promise<StoredRun> {
  if (inv.arg instanceof RunNode) return c.store.get(inv.arg.run.id) ?? inv.arg.run;
  const id = inv.options?.id;
  if (inv.options) {
    if (typeof id !== 'string' || id.trim() === '') throw badInput('Pass { id } of a remembered run.');
    const run = c.store.get(id.trim());
    if (!run) throw badInput(`No remembered run with ID "${id}": it was cleared or is older than the last datagrok.runs.maxRemembered runs.`);
    return run;
  }
  return pickRun(c, title, filter);
}

/** A run's result documents (kept by the results file system, read from the store). */
export async function resultParts(c: RunsContext, run: StoredRun): Promise<ResultPart[]> {
  const got = await c.store.result(run);
  if ('missing' in got) throw badInput(`The result of ${runLabel(run)} (${when(run.startedAt)}) is not available. ${got.missing}`);
  return (await runResultView(c.services.platform.catalog, run.functionName, await scriptOfRun(c.store, run), got.value)).parts;
}

async function inputsOf(c: RunsContext, run: StoredRun): Promise<Record<string, unknown>> {
  const got = await c.store.inputs(run);
  if ('missing' in got) throw badInput(`The inputs of ${runLabel(run)} (${when(run.startedAt)}) were not kept. ${got.missing}`);
  return got.value;
}

function fileOf(run: StoredRun): vscode.Uri | undefined {
  return run.file ? vscode.Uri.parse(run.file, true) : undefined;
}

/** datagrok.runs.runAgain: the same function with the inputs that were sent; returns the result. */
export async function runAgain(c: RunsContext, inv: CommandInvocation<RunOptions>): Promise<unknown> {
  const run = await runOf(c, inv, 'Run Again');
  const params = await inputsOf(c, run);
  const file = fileOf(run);
  const runs: RunServices = { results: c.runs.results, onDidRun: (r) => c.runs.onDidRun?.({ ...r, fileUri: r.fileUri ?? file }) };
  // Interactive from the view: still no prompt (the inputs are known); errors show as notifications.
  const call = (functionName: string) => {
    const options = { function: functionName, params };
    return runFunctionCommand(c.services, c.services.platform.tables, runs, { ...inv, arg: options, options, interactive: inv.interactive });
  };
  // ▶ Run on Datagrok's temporary copy was deleted after its run: the text it ran goes up again.
  if (isTemporaryName(run.functionName)) return runScriptAgain(c.services, c.store, run, call);
  return call(run.functionName);
}

/** datagrok.runs.openResult: opens the run's result documents; returns their Uris. */
export async function openResult(c: RunsContext, inv: CommandInvocation<RunOptions>): Promise<vscode.Uri[]> {
  const run = await runOf(c, inv, 'Open Result', (r) => r.outcome === 'ok');
  const inputs = await c.store.inputs(run);
  const documents = await openResultDocuments(c.runs.results, run.id, await resultParts(c, run), fileOf(run), runLabel(run), 'value' in inputs ? inputs.value : undefined);
  return documents.map((d) => d.uri);
}

/** datagrok.runs.openParameterFile: opens the file the run came from. */
export async function openParameterFile(c: RunsContext, inv: CommandInvocation<RunOptions>): Promise<vscode.Uri> {
  const run = await runOf(c, inv, 'Open Parameter File', (r) => r.file !== undefined);
  const file = fileOf(run);
  if (!file) throw badInput(`${runLabel(run)} (${when(run.startedAt)}) was not run from a parameter file: use "Save as Parameter File" to make one.`);
  try {
    await vscode.window.showTextDocument(file, { preview: false });
  } catch (e) {
    throw badInput(
      `The parameter file ${file.toString(true)} cannot be opened (moved or deleted?): ${e instanceof Error ? e.message : String(e)}. "Save as Parameter File" writes the inputs that were sent.`,
    );
  }
  return file;
}

async function chooseCsv(parts: ResultPart[], title: string, csvOnly: boolean): Promise<ResultPart> {
  const candidates = csvOnly ? parts.filter((p) => p.language === 'csv') : parts;
  if (candidates.length === 0) throw badInput('This result has no dataframe: only CSV results can be pushed as tables.');
  if (candidates.length === 1) return candidates[0];
  const picked = await vscode.window.showQuickPick(
    candidates.map((p) => ({ label: p.name, part: p })),
    { title },
  );
  if (!picked) throw new UserCancelled();
  return picked.part;
}

/** datagrok.runs.saveResultAs from a run item: the result document (asks which when several). */
export async function saveRunResultAs(c: RunsContext, inv: CommandInvocation<RunOptions & SaveResultOptions>): Promise<vscode.Uri> {
  if (!(inv.arg instanceof RunNode) && (inv.arg instanceof vscode.Uri || inv.options?.id === undefined)) {
    return saveResultAs(inv.arg instanceof vscode.Uri ? inv.arg : undefined, inv);
  }
  const run = await runOf(c, inv, 'Save Result As…');
  const parts = await resultParts(c, run);
  c.runs.results.put(run.id, parts);
  const part = inv.interactive ? await chooseCsv(parts, 'Which output?', false) : parts[0];
  return saveResultAs(resultUri(run.id, part), inv);
}

/** datagrok.runs.pushResult from a run item: its (first, or chosen) CSV output. */
export async function pushRunResult(c: RunsContext, inv: CommandInvocation<RunOptions & PushResultOptions>): Promise<unknown> {
  if (!(inv.arg instanceof RunNode) && (inv.arg instanceof vscode.Uri || inv.options?.id === undefined)) {
    return pushResult(inv.arg instanceof vscode.Uri ? inv.arg : undefined, inv);
  }
  const run = await runOf(c, inv, 'Push Result as Table');
  const parts = await resultParts(c, run);
  c.runs.results.put(run.id, parts);
  const part = inv.interactive ? await chooseCsv(parts, 'Which dataframe?', true) : (parts.find((p) => p.language === 'csv') ?? parts[0]);
  return pushResult(resultUri(run.id, part), inv);
}

export interface SaveParameterFileOptions extends RunOptions {
  /** Where to write; required with options. */
  target?: vscode.Uri | string;
  overwrite?: boolean;
}

/** The parameter file of a run: "$function" and the inputs that were sent. */
export function parameterFileOf(functionName: string, inputs: Record<string, unknown>): string {
  return `${JSON.stringify({ $function: functionName, ...inputs }, null, 2)}\n`;
}

/** datagrok.runs.saveAsParameterFile: writes and opens `<Name>.datagrok.json`; returns its Uri. */
export async function saveAsParameterFile(c: RunsContext, inv: CommandInvocation<SaveParameterFileOptions>): Promise<vscode.Uri> {
  const run = await runOf(c, inv, 'Save as Parameter File');
  const text = parameterFileOf(run.functionName, await inputsOf(c, run));
  let target: vscode.Uri | undefined;
  if (inv.options) {
    target = uriOption(inv.options.target, 'target');
    if (!target) throw badInput('Pass { target } (a file Uri or path) for the parameter file.');
    if (inv.options.overwrite !== true) {
      const exists = await Promise.resolve(vscode.workspace.fs.stat(target)).then(
        () => true,
        () => false,
      );
      if (exists) throw badInput(`${target.toString(true)} already exists: pass { overwrite: true } to replace it. Nothing was written.`);
    }
  } else {
    const name = `${run.functionName.slice(run.functionName.lastIndexOf(':') + 1).replace(/[^\w.-]+/g, '_')}.datagrok.json`;
    const file = fileOf(run);
    const folder = file?.scheme === 'file' ? vscode.Uri.joinPath(file, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
    target = await vscode.window.showSaveDialog({
      title: `Save the inputs of ${run.functionName} as a parameter file`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { 'Parameter files': ['json', 'jsonc'] },
    });
    if (!target) throw new UserCancelled();
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  if (inv.interactive) await vscode.window.showTextDocument(target, { preview: false });
  return target;
}

async function copy(c: RunsContext, inv: CommandInvocation<RunOptions>, kind: 'curl' | 'Python'): Promise<string> {
  const run = await runOf(c, inv, `Copy as ${kind}`);
  const inputs = await inputsOf(c, run);
  const text = kind === 'curl' ? curlText(run.server, run.functionName, inputs) : pythonText(run.server, run.functionName, inputs);
  await vscode.env.clipboard.writeText(text);
  if (inv.interactive) void vscode.window.showInformationMessage(`Copied ${run.functionName} as ${kind}: put your API key in place of <API key>.`);
  return text;
}

export const copyAsCurl = (c: RunsContext, inv: CommandInvocation<RunOptions>) => copy(c, inv, 'curl');
export const copyAsPython = (c: RunsContext, inv: CommandInvocation<RunOptions>) => copy(c, inv, 'Python');

/** datagrok.runs.remove: forgets one run (and its stored result). */
export async function removeRun(c: RunsContext, inv: CommandInvocation<RunOptions>): Promise<void> {
  const run = await runOf(c, inv, 'Remove Run');
  await c.store.remove(run.id);
  c.runs.results.forget(run.id);
}

/** datagrok.runs.clear: forgets every run of the active server (asks first from the view); returns how many. */
export async function clearRuns(c: RunsContext, inv: CommandInvocation<Record<string, never>>): Promise<number> {
  const s = server(c);
  const count = c.store.list(s).length;
  if (count === 0) return 0;
  if (inv.interactive) {
    const clear = 'Clear';
    const choice = await vscode.window.showWarningMessage(
      `Forget the ${count} remembered run${count === 1 ? '' : 's'} on ${hostOf(s)}?`,
      { modal: true, detail: 'Their inputs and results kept here are deleted; nothing changes on the server.' },
      clear,
    );
    if (choice !== clear) throw new UserCancelled();
  }
  for (const run of c.store.list(s)) c.runs.results.forget(run.id);
  return c.store.clear(s);
}
