// Create Dashboard's questions: tables (a pick of the server's tables, checked at this step), name and
// layout, with step counters and Back buttons; what was answered is kept for going back or trying again.
import * as vscode from 'vscode';
import { hostOf } from '../api/names';
import type { Catalog } from '../platform/functions/catalog';
import type { RecentEntities } from '../platform/recent';
import { missingTablesProblem, tableSearch } from '../ui/entitySearch';
import { askChoice, askText, BACK } from '../ui/quickSteps';
import { pickTables } from '../ui/tablesPick';

export interface CreateAnswers {
  tables: string[];
  /** The text left in the tables pick. */
  typed: string;
  name: string;
  layout: vscode.Uri | undefined;
}

export interface AskContext {
  catalog: Catalog;
  tablesStore: RecentEntities;
  server: string;
  /** Tables chosen already (New Dashboard in the Tables view): no tables step. */
  preset?: string[];
}

const TITLE = 'Create Dashboard';

async function askLayout(step: number, totalSteps: number, previous: vscode.Uri | undefined): Promise<vscode.Uri | undefined | typeof BACK> {
  const none = { label: 'No layout', description: 'the server lays the tables out' };
  const file = { label: '$(file) Choose a layout JSON file…', description: previous ? `now ${vscode.workspace.asRelativePath(previous)}` : undefined };
  for (;;) {
    const choice = await askChoice([none, file], { title: `${TITLE}: layout`, step, totalSteps, back: true });
    if (choice === BACK) return BACK;
    if (choice === none) return undefined;
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: previous, filters: { 'JSON layout': ['json', 'jsonc'] }, title: 'Dashboard layout' });
    // Dismissing the file dialog returns to the layout choice.
    if (picked?.[0]) return picked[0];
  }
}

/** Asks what is missing, starting at `startAt` (0: the first step) with the earlier answers filled in. */
export async function askCreateDashboard(c: AskContext, previous?: CreateAnswers, startAt = 0): Promise<CreateAnswers> {
  const answers: CreateAnswers = previous ?? { tables: c.preset ?? [], typed: '', name: '', layout: undefined };
  if (c.preset) answers.tables = c.preset;
  const steps = c.preset ? (['name', 'layout'] as const) : (['tables', 'name', 'layout'] as const);
  const total = steps.length;
  let host = 'the server';
  try {
    host = hostOf(c.server);
  } catch {
    // keep the generic wording
  }
  let i = Math.min(startAt, total - 1);
  while (i < total) {
    const step = steps[i]!;
    if (step === 'tables') {
      const picked = await pickTables({
        title: `${TITLE}: tables`,
        step: i + 1,
        totalSteps: total,
        placeholder: `Tick the tables to put on the dashboard (type to search ${host}), or type a table ID or name`,
        initial: answers.tables,
        value: answers.typed,
        search: tableSearch(c.catalog),
        remembered: c.tablesStore.list(c.server),
        check: (values) => missingTablesProblem(c.catalog, values, host),
      });
      if (picked === BACK) continue;
      answers.tables = picked.tables;
      answers.typed = picked.value;
    } else if (step === 'name') {
      const name = await askText({
        title: `${TITLE}: name`,
        step: i + 1,
        totalSteps: total,
        back: i > 0,
        prompt: `The dashboard name, for ${answers.tables.length} table${answers.tables.length === 1 ? '' : 's'} (an existing dashboard of that name is updated)`,
        value: answers.name,
        validate: (v) => (v.trim() === '' ? 'Enter a name.' : v.includes('/') ? 'A dashboard name cannot contain "/".' : undefined),
      });
      if (name === BACK) {
        i--;
        continue;
      }
      answers.name = name.trim();
    } else {
      const layout = await askLayout(i + 1, total, answers.layout);
      if (layout === BACK) {
        i--;
        continue;
      }
      answers.layout = layout;
    }
    i++;
  }
  return answers;
}
