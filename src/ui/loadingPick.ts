// The one quick pick for a prompt whose choices come from the server: shown at once, busy, its placeholder
// "Loading <what> from <server>…", and filled as the answers arrive (a slow or loaded server no longer
// leaves the user with no sign of life for seconds). A failure shows in the pick, with what failed and a
// Retry; the items that need no server (a typed name, "Other…") stay usable meanwhile.
import type * as vscode from 'vscode';
import { type Back, type PickUi, runStep, stepPick } from './quickSteps';

export interface LoadingPickOptions<T extends vscode.QuickPickItem> extends PickUi {
  /** What loads, e.g. "connectors": the placeholder says "Loading connectors from <server>…". */
  what: string;
  /** The server's host. */
  server: string;
  /** The placeholder once the choices are in. */
  placeholder: string;
  /** The text in the box at first. */
  value?: string;
  /**
   * Loads the choices: hands over each batch as it arrives (`add`), or returns them all. `signal` aborts
   * when the pick closes (or Retry starts over).
   */
  load(add: (items: readonly T[]) => void, signal: AbortSignal): Promise<readonly T[] | undefined>;
  /**
   * The items to show for what has loaded so far and the text typed (e.g. the typed name first, "Other…"
   * last); `done` once everything is in. Default: what has loaded.
   */
  arrange?(loaded: readonly T[], typed: string, done: boolean): (T | vscode.QuickPickItem)[];
  /** The line shown when loading ended and there is nothing to pick. */
  empty?: string;
  /** Where a failed load is logged (it also shows in the pick). */
  log?: vscode.LogOutputChannel;
}

/** A line of the pick that is not a choice (an error, "nothing found"); accepting it does nothing. */
interface Note extends vscode.QuickPickItem {
  note: true;
}

const note = (label: string, description?: string): Note => ({ label, description, alwaysShow: true, note: true });

/** A line for `arrange` to show that is not a choice (a problem with what was typed): accepting it does nothing. */
export function noteItem(label: string, description?: string): vscode.QuickPickItem {
  return note(label, description);
}
const isNote = (item: vscode.QuickPickItem): item is Note => (item as Partial<Note>).note === true;

/** The placeholder while the choices load. */
export const loadingPlaceholder = (what: string, server: string) => `Loading ${what} from ${server}…`;

/**
 * Shows the pick at once and loads its choices into it. Resolves with the accepted item, or BACK (its Back
 * button); rejects with UserCancelled when dismissed.
 */
export function pickLoading<T extends vscode.QuickPickItem>(o: LoadingPickOptions<T>): Promise<T | Back> {
  const pick = stepPick<T | Note>(o);
  pick.value = o.value ?? '';
  const retry = note('$(refresh) Retry', `ask ${o.server} again`);
  let loaded: T[] = [];
  let state: 'loading' | 'done' | { error: string } = 'loading';
  let running: AbortController | undefined;

  const update = () => {
    const items = (o.arrange ? o.arrange(loaded, pick.value.trim(), state === 'done') : [...loaded]) as (T | Note)[];
    if (typeof state === 'object') items.unshift(note(`$(error) ${state.error}`), retry);
    else if (state === 'done' && items.length === 0 && o.empty) items.push(note(o.empty));
    pick.items = items;
  };

  const load = async () => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    loaded = [];
    state = 'loading';
    pick.busy = true;
    pick.placeholder = loadingPlaceholder(o.what, o.server);
    update();
    try {
      const all = await o.load((batch) => {
        if (controller.signal.aborted) return;
        loaded = [...loaded, ...batch];
        update();
      }, controller.signal);
      if (controller.signal.aborted) return;
      if (all) loaded = [...all];
      state = 'done';
      pick.placeholder = o.placeholder;
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      o.log?.warn(`Loading ${o.what} from ${o.server} failed: ${message}`);
      state = { error: message };
      pick.placeholder = `Could not load ${o.what} from ${o.server}`;
    } finally {
      if (running === controller) pick.busy = false;
    }
    update();
  };

  return runStep<T>(
    pick,
    (finish) => {
      if (o.arrange) pick.onDidChangeValue(update);
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        if (!item) return;
        if (item === retry) void load();
        else if (!isNote(item)) finish(item);
      });
      void load();
    },
    () => running?.abort(),
  );
}
