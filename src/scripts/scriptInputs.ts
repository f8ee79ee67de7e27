// ▶ Run on Datagrok from the palette or the lens: the script's inputs asked one by one (a step each, with
// Back), prefilled with the header's initial values and checked by type as they are typed; a dataframe
// input offers the server's tables and the CSV files open in editors; a parameter file beside the script
// is offered first. Escape ends it with nothing run. What is asked is src/platform/scripts/inputPrompts.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TableInfo } from '../api/types';
import { UserCancelled } from '../core/commands';
import type { ScriptHeader } from '../platform/scripts/header';
import { type InputPrompt, inputParams, inputProblem, inputPrompts, inputValue, promptText } from '../platform/scripts/inputPrompts';
import { askText, BACK, type Back, runStep, type StepUi, stepPick } from '../ui/quickSteps';

export interface ScriptInputs {
  /** The inputs to send (empty when the parameter file was chosen). */
  params: Record<string, unknown>;
  /** The parameter file beside the script, when the user chose to run with it. */
  parameterFile?: vscode.Uri;
}

interface ValueItem extends vscode.QuickPickItem {
  value?: unknown;
  /** The text the step keeps for Back. */
  text: string;
}

/** One answer: the value sent and the text shown when the step is shown again. */
interface Answer {
  value: unknown;
  text: string;
}

function pickStep(items: ValueItem[], ui: StepUi & { placeholder: string }, active: string, typed?: (text: string) => ValueItem | undefined): Promise<Answer | Back> {
  const pick = stepPick<ValueItem>(ui);
  const fixed = items;
  const update = () => {
    const extra = typed?.(pick.value.trim());
    pick.items = extra ? [extra, ...fixed] : fixed;
  };
  update();
  const start = pick.items.find((i) => i.text === active);
  if (start) pick.activeItems = [start];
  return runStep<Answer>(pick, (finish) => {
    pick.onDidChangeValue(update);
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (item && !item.label.startsWith('$(error)')) finish({ value: item.value, text: item.text });
    });
  });
}

/** The CSV documents open here that can be pushed as a table for the run (files: the push reads them). */
function openCsvFiles(): vscode.Uri[] {
  const seen = new Map<string, vscode.Uri>();
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme === 'file' && (d.languageId === 'csv' || /\.(csv|tsv)$/i.test(d.uri.path))) seen.set(d.uri.toString(), d.uri);
  }
  return [...seen.values()];
}

/** A dataframe input: the server's tables (listed as they come), the open CSV files, or a typed ID or name. */
function askTable(prompt: InputPrompt, ui: StepUi, tables: () => Promise<TableInfo[]>, active: string): Promise<Answer | Back> {
  const pick = stepPick<ValueItem>({ ...ui, placeholder: `${promptText(prompt)}: a table on the server, or a CSV file open here (pushed as a new table)` });
  const csvItems: ValueItem[] = openCsvFiles().map((uri) => ({
    label: `$(file) ${path.posix.basename(uri.path)}`,
    description: vscode.workspace.asRelativePath(uri),
    detail: 'Open here: pushed to the server as a new table for this run',
    value: { $csv: uri.fsPath },
    text: uri.fsPath,
  }));
  let server: ValueItem[] = [];
  const update = () => {
    const typed = pick.value.trim();
    const typedItem: ValueItem[] =
      typed && !server.some((s) => s.text === typed)
        ? [{ label: `$(edit) ${typed}`, description: 'the table ID or name you typed', value: typed, text: typed, alwaysShow: true }]
        : [];
    pick.items = [...typedItem, ...csvItems, ...server];
    const start = pick.items.find((i) => i.text === active);
    if (start && !typed) pick.activeItems = [start];
  };
  update();
  pick.busy = true;
  void tables()
    .then(
      (found) => {
        server = found.map((t) => ({ label: `$(table) ${t.nqName ?? t.name}`, description: t.id, value: t.nqName ?? t.id, text: t.nqName ?? t.id }));
        update();
      },
      (error: unknown) => {
        server = [{ label: `$(error) The server's tables could not be listed: ${error instanceof Error ? error.message : String(error)}`, text: '', alwaysShow: true }];
        update();
      },
    )
    .finally(() => {
      pick.busy = false;
    });
  return runStep<Answer>(pick, (finish) => {
    pick.onDidChangeValue(update);
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (item?.value !== undefined) finish({ value: item.value, text: item.text });
      else if (!item && prompt.optional && pick.value.trim() === '') finish({ value: undefined, text: '' });
    });
  });
}

function askOne(prompt: InputPrompt, ui: StepUi, tables: () => Promise<TableInfo[]>, text: string): Promise<Answer | Back> {
  if (prompt.kind === 'dataframe') return askTable(prompt, ui, tables, text);
  if (prompt.kind === 'bool' || prompt.kind === 'choice') {
    const items: ValueItem[] = (prompt.choices ?? []).map((c) => ({
      label: c,
      description: c === prompt.initialText ? 'default' : undefined,
      value: inputValue(prompt, c),
      text: c,
    }));
    if (prompt.optional) items.push({ label: '$(circle-slash) none', description: 'send nothing', value: undefined, text: '' });
    return pickStep(items, { ...ui, placeholder: promptText(prompt) }, text);
  }
  return askText({ ...ui, prompt: promptText(prompt), value: text, validate: (v) => inputProblem(prompt, v) }).then((answer) =>
    answer === BACK ? BACK : { value: inputValue(prompt, answer), text: answer },
  );
}

/**
 * Asks for the inputs of a script (`name`: the header's): first, when there is one, whether to run with
 * the parameter file beside it; then each input. Rejects with UserCancelled when the user presses Escape.
 */
export async function askScriptInputs(header: ScriptHeader, name: string, besideFile: vscode.Uri | undefined, tables: () => Promise<TableInfo[]>): Promise<ScriptInputs> {
  const prompts = inputPrompts(header);
  const title = `Run ${name} on Datagrok`;
  const offset = besideFile ? 1 : 0;
  const totalSteps = prompts.length + offset;
  const answers: (Answer | undefined)[] = prompts.map(() => undefined);
  let i = besideFile ? -1 : 0;
  // The file is what Enter takes first; after going Back from the inputs, entering them again.
  let fileText = 'file';
  while (i < prompts.length) {
    const ui: StepUi = { title, step: i + 1 + offset, totalSteps, back: i > -1 && i + offset > 0 };
    if (i === -1 && besideFile) {
      const file = path.posix.basename(besideFile.path);
      const items: ValueItem[] = [
        { label: `$(json) Run with ${file}`, detail: 'The inputs of the parameter file beside the script', value: 'file', text: 'file' },
        {
          label: '$(edit) Enter the inputs',
          detail: prompts.length > 0 ? `${prompts.map((p) => p.caption).join(', ')}: prefilled with the header's initial values` : 'The script has no inputs',
          value: 'enter',
          text: 'enter',
        },
      ];
      const choice = await pickStep(items, { ...ui, placeholder: `Which inputs should ${name} run with?` }, fileText);
      if (choice === BACK) continue;
      if (choice.value === 'file') return { params: {}, parameterFile: besideFile };
      fileText = 'enter';
      i++;
      continue;
    }
    const prompt = prompts[i];
    const answer = await askOne(prompt, ui, tables, answers[i]?.text ?? prompt.initialText);
    if (answer === BACK) {
      i--;
      continue;
    }
    answers[i] = answer;
    i++;
  }
  if (answers.some((a) => a === undefined)) throw new UserCancelled();
  return {
    params: inputParams(
      prompts,
      answers.map((a) => a?.value),
    ),
  };
}
