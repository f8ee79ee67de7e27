// A quick pick of groups looked up on the server as the user types: one to join (groups feature),
// several to share a dashboard with (dashboards feature).
import type * as vscode from 'vscode';
import type { Group } from '../api/types';
import { UserCancelled } from '../core/commands';
import { stepPick } from './quickSteps';

interface GroupItem extends vscode.QuickPickItem {
  group?: Group;
}

/** How a group shows in a lookup pick: icon, name (and friendly name), user or group, description. */
function groupItem(group: Group): GroupItem {
  const label = group.friendlyName && group.friendlyName !== group.name ? `${group.friendlyName} (${group.name})` : group.name;
  return {
    label: `${group.personal ? '$(person)' : '$(organization)'} ${label}`,
    description: group.personal ? 'user' : 'group',
    detail: group.description || undefined,
    group,
  };
}

export interface GroupLookupPick {
  title: string;
  /** The step counter of a multi-step flow. */
  step?: number;
  totalSteps?: number;
  placeholder: string;
  /** Tick several groups (kept while the user types on); otherwise Enter takes the highlighted one. */
  canSelectMany?: boolean;
  ignoreFocusOut?: boolean;
  /** Also look up the empty text (the server's answer to no query, shown on open); otherwise it shows nothing. */
  lookupEmpty?: boolean;
  /** The groups to offer for the text; `signal` aborts when the text changes or the pick closes. */
  lookup(text: string, signal: AbortSignal): Promise<Group[]>;
  /** The item shown when nothing is offered. */
  noMatch(text: string): string;
  /** Where failed lookups are logged (they also show as an item). */
  log?: vscode.LogOutputChannel;
}

/**
 * A quick pick fed by a server lookup as the user types (debounced; a lookup still running when the
 * text changes or the pick closes is aborted). Resolves with the picked group(s); rejects with
 * UserCancelled when dismissed.
 */
export function pickGroupsByLookup(options: GroupLookupPick): Promise<Group[]> {
  const pick = stepPick<GroupItem>({ ...options, ignoreFocusOut: options.ignoreFocusOut ?? false });
  let ticked: GroupItem[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: AbortController | undefined;

  const show = (items: GroupItem[]) => {
    // Ticked groups stay listed and ticked whatever the text.
    const kept = new Map(ticked.map((t) => [t.group?.id, t]));
    pick.items = [...kept.values(), ...items.filter((i) => !i.group || !kept.has(i.group.id))];
    if (pick.canSelectMany) pick.selectedItems = [...kept.values()];
  };

  const load = async (text: string, controller: AbortController) => {
    try {
      const groups = await options.lookup(text, controller.signal);
      if (controller.signal.aborted) return;
      show(groups.length ? groups.map(groupItem) : [{ label: options.noMatch(text), alwaysShow: true }]);
    } catch (e) {
      if (controller.signal.aborted) return;
      const message = e instanceof Error ? e.message : String(e);
      options.log?.warn(`Group lookup failed: ${message}`);
      show([{ label: `$(error) ${message}`, alwaysShow: true }]);
    } finally {
      if (running === controller) pick.busy = false;
    }
  };

  const schedule = (value: string, delayMs: number) => {
    if (timer) clearTimeout(timer);
    running?.abort();
    running = undefined;
    const text = value.trim();
    if (text === '' && !options.lookupEmpty) {
      show([]);
      pick.busy = false;
      return;
    }
    const controller = new AbortController();
    running = controller;
    pick.busy = true;
    timer = setTimeout(() => void load(text, controller), delayMs);
  };

  return new Promise<Group[]>((resolve, reject) => {
    let done = false;
    pick.onDidChangeSelection((items) => {
      if (pick.canSelectMany) ticked = items.filter((i) => i.group);
    });
    pick.onDidChangeValue((value) => schedule(value, 250));
    pick.onDidAccept(() => {
      const chosen = (pick.canSelectMany ? ticked : pick.selectedItems.slice(0, 1)).flatMap((i) => (i.group ? [i.group] : []));
      if (chosen.length === 0) return;
      done = true;
      resolve(chosen);
      pick.hide();
    });
    pick.onDidHide(() => {
      if (timer) clearTimeout(timer);
      running?.abort();
      pick.dispose();
      if (!done) reject(new UserCancelled());
    });
    pick.show();
    schedule('', 0);
  });
}
