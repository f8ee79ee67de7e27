// A quick pick of the server's tables or dashboards (searched on the server as the user types) and the
// ones remembered here, that also accepts a typed ID or name; and the "Open in Browser" / "Copy ID"
// notification shown after a table or dashboard is made.
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { CreationResult } from '../api/types';
import { UserCancelled } from '../core/commands';
import type { RememberedEntity } from '../platform/recent';
import { BACK, runStep, stepPick } from './quickSteps';

/** An entity the server listed, as a pick shows it. */
export interface ServerEntity {
  id: string;
  label: string;
  description?: string;
  detail?: string;
}

/** The server's entities matching a text; rejects with kind 'unsupported' when the server lists none. */
export type EntitySearch = (text: string) => Promise<ServerEntity[]>;

export interface EntityItem extends vscode.QuickPickItem {
  value: string;
}

/** How long typing pauses before the server is asked. */
export const SEARCH_DELAY_MS = 250;

export function rememberedItems(remembered: readonly RememberedEntity[], skip: ReadonlySet<string> = new Set()): EntityItem[] {
  return remembered.filter((e) => !skip.has(e.ID)).map((e) => ({ label: e.name, description: e.ID, detail: `Made here ${new Date(e.at).toLocaleString()}`, value: e.ID }));
}

export function serverItems(entities: readonly ServerEntity[]): EntityItem[] {
  return entities.map((e) => ({ label: e.label, description: e.description ?? e.id, detail: e.detail, value: e.id }));
}

/**
 * Runs `search` for the pick's text (debounced, newest answer wins) and hands over the items; a server
 * without the list route gives none, another failure an error item.
 */
export function searchAsYouType(pick: vscode.QuickPick<EntityItem>, search: EntitySearch | undefined, show: (found: EntityItem[]) => void): () => void {
  let asked = 0;
  let timer: NodeJS.Timeout | undefined;
  const run = async (text: string) => {
    const ticket = ++asked;
    if (!search) return show([]);
    pick.busy = true;
    try {
      const found = serverItems(await search(text));
      if (ticket === asked) show(found);
    } catch (error) {
      if (ticket !== asked) return;
      if (isDatagrokError(error, 'unsupported')) show([]);
      else show([{ label: `$(error) ${error instanceof Error ? error.message : String(error)}`, value: '', alwaysShow: true }]);
    } finally {
      if (ticket === asked) pick.busy = false;
    }
  };
  void run(pick.value.trim());
  pick.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(value.trim()), SEARCH_DELAY_MS);
  });
  return () => {
    if (timer) clearTimeout(timer);
  };
}

/** Resolves with the picked entity's ID, or the typed text; rejects with UserCancelled when dismissed. */
export async function pickEntity(
  remembered: RememberedEntity[],
  ui: { title: string; placeholder: string; search?: EntitySearch; step?: number; totalSteps?: number },
): Promise<string> {
  const quickPick = stepPick<EntityItem>(ui);
  let found: EntityItem[] = [];
  const update = () => {
    const typed = quickPick.value.trim();
    const typedItem: EntityItem[] = typed ? [{ label: typed, description: 'the ID or name you typed', value: typed, alwaysShow: true }] : [];
    const listed = new Set(found.map((f) => f.value));
    quickPick.items = [...typedItem, ...found, ...rememberedItems(remembered, listed)];
  };
  update();
  const stop = searchAsYouType(quickPick, ui.search, (items) => {
    found = items;
    update();
  });
  const picked = await runStep<string>(
    quickPick,
    (finish) => {
      quickPick.onDidChangeValue(update);
      quickPick.onDidAccept(() => {
        const item = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
        if (item?.value) finish(item.value);
      });
    },
    stop,
  );
  // No Back button is shown, so BACK never comes; were it to, it would end the pick like a dismissal.
  if (picked === BACK) throw new UserCancelled();
  return picked;
}

/** Tells the user what was made, with "Open in Browser" and "Copy ID". Never awaited. */
export function announceCreated(message: string, result: CreationResult, extra: Record<string, () => unknown> = {}): void {
  // Only a web address the server gave is opened: an empty or other-scheme URL offers no button.
  const browsable = /^https?:\/\//i.test(result.URL);
  const actions = [...(browsable ? ['Open in Browser'] : []), 'Copy ID', ...Object.keys(extra)];
  void vscode.window.showInformationMessage(message, ...actions).then((choice) => {
    if (choice === 'Open in Browser') return vscode.env.openExternal(vscode.Uri.parse(result.URL));
    if (choice === 'Copy ID') return vscode.env.clipboard.writeText(result.ID);
    if (choice !== undefined) return extra[choice]?.();
    return undefined;
  });
}
