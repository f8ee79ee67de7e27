// Pull to Bundle's first step: a searchable multi-select pick of the server's scripts, queries, connections,
// dashboards, tables and groups (a separator per kind; shown at once, busy, filled as each kind arrives), where
// typed text still works — "Pull '<typed text>'": qualified names or ids, a name with spaces in quotes, "?" and
// text for a smart search. The choice is checked against the server when accepted: a name that does not resolve
// is said in the pick, which stays open with what was ticked and typed.
import * as vscode from 'vscode';
import type { EntityRoutes } from '../api/entities';
import { UserCancelled } from '../core/commands';
import type { Selection } from '../platform/bundles';
import { checkNames, listPickable, PICKABLE_KINDS, parseNames } from '../platform/bundles/pickable';
import { BACK, runStep, stepPick } from '../ui/quickSteps';

interface PullItem extends vscode.QuickPickItem {
  /** The entity's id (a listed entity). */
  value?: string;
  /** The "Pull '<typed text>'" item. */
  typed?: boolean;
}

const SMART_TYPES = ['query', 'script', 'connection', 'dashboard', 'project', 'table', 'layout', 'view', 'group'];
export const PULL_PICK_TITLE = 'Pull to Bundle: what to pull';

export async function pickPullSelection(api: EntityRoutes): Promise<Selection> {
  const pick = stepPick<PullItem>({
    title: PULL_PICK_TITLE,
    placeholder: 'Tick what to pull, or type qualified names or ids ("World overview" Samples:TopCustomers), or "?" and a smart search',
    canSelectMany: true,
  });
  const abort = new AbortController();
  const lists = new Map<string, PullItem[]>();
  const chosen = new Set<string>();
  let typedTicked = false;
  let problem: string | undefined;
  let updating = false;
  const update = () => {
    const typed = pick.value.trim();
    const items: PullItem[] = [];
    if (problem) items.push({ label: `$(error) ${problem}`, alwaysShow: true });
    if (typed)
      items.push({
        label: `$(edit) Pull '${typed}'`,
        description: typed.startsWith('?') ? 'a smart search: the types are asked next' : 'the names or ids typed (a name with spaces in quotes)',
        typed: true,
        alwaysShow: true,
      });
    for (const kind of PICKABLE_KINDS) {
      const listed = lists.get(kind.label);
      if (!listed?.length) continue;
      items.push({ label: kind.label, kind: vscode.QuickPickItemKind.Separator }, ...listed);
    }
    updating = true;
    pick.items = items;
    pick.selectedItems = items.filter((i) => (i.value && chosen.has(i.value)) || (i.typed && typedTicked));
    updating = false;
  };
  pick.busy = true;
  update();
  let pending = PICKABLE_KINDS.length;
  for (const kind of PICKABLE_KINDS) {
    listPickable(api, kind, abort.signal)
      .then((found) =>
        lists.set(
          kind.label,
          found.map((p) => ({ label: p.name, description: p.description, value: p.id })),
        ),
      )
      .catch((e) => {
        if (!abort.signal.aborted) lists.set(kind.label, [{ label: `$(error) ${kind.label} could not be listed: ${(e as Error).message}`, alwaysShow: true }]);
      })
      .finally(() => {
        if (--pending === 0) pick.busy = false;
        if (!abort.signal.aborted) update();
      });
  }
  const picked = await runStep<Selection>(
    pick,
    (finish) => {
      pick.onDidChangeValue(() => {
        typedTicked = false;
        update();
      });
      pick.onDidChangeSelection((selection) => {
        if (updating) return;
        typedTicked = selection.some((s) => s.typed);
        for (const item of pick.items) if (item.value) selection.includes(item) ? chosen.add(item.value) : chosen.delete(item.value);
      });
      pick.onDidAccept(async () => {
        const typed = pick.value.trim();
        const useTyped = typed !== '' && (typedTicked || chosen.size === 0);
        if (useTyped && typed.startsWith('?')) return finish({ text: typed.slice(1).trim() });
        let names: string[] = [];
        try {
          names = useTyped ? parseNames(typed) : [];
        } catch (e) {
          problem = (e as Error).message;
          return update();
        }
        if (!chosen.size && !names.length) {
          problem = 'Tick what to pull, or type qualified names or ids.';
          return update();
        }
        pick.busy = true;
        pick.enabled = false;
        try {
          problem = await checkNames(api, names, abort.signal);
        } catch (e) {
          problem = (e as Error).message;
        } finally {
          pick.busy = pending > 0;
          pick.enabled = true;
        }
        if (problem) update();
        else finish([...chosen, ...names]);
      });
    },
    () => abort.abort(),
  );
  if (picked === BACK) throw new UserCancelled();
  if (Array.isArray(picked)) return picked;
  // "?" and text: a smart search, over the types picked next.
  const types = await vscode.window.showQuickPick(SMART_TYPES, { title: 'Pull to Bundle: of which types', canPickMany: true });
  if (!types?.length) throw new UserCancelled();
  return { text: picked.text, types };
}
