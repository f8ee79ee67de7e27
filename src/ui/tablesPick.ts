// The tables step of a flow (Create Dashboard): a multi-select pick of the server's tables, searched on
// the server as the user types, plus the ones pushed here and a typed ID or name. The choice is checked
// when accepted: a table that is not on the server is reported here, the pick stays open with what was
// chosen and typed.
import type { RememberedEntity } from '../platform/recent';
import { type EntityItem, type EntitySearch, rememberedItems, searchAsYouType } from './entityPick';
import { type Back, runStep, type StepUi, stepPick } from './quickSteps';

export interface PickTablesOptions extends StepUi {
  placeholder: string;
  /** What was chosen before (going Back, or after an error): IDs or names. */
  initial: readonly string[];
  /** The text typed before. */
  value?: string;
  search?: EntitySearch;
  remembered: readonly RememberedEntity[];
  /** The problem with the chosen tables (e.g. one is not on the server), if any. */
  check(values: string[]): Promise<string | undefined>;
}

export interface PickedTables {
  tables: string[];
  /** The text left in the box, for going Back to this step. */
  value: string;
}

const typedItem = (text: string): EntityItem => ({ label: `$(edit) ${text}`, description: 'the table ID or name you typed', value: text, alwaysShow: true });

export function pickTables(o: PickTablesOptions): Promise<PickedTables | Back> {
  const pick = stepPick<EntityItem>({ ...o, canSelectMany: true });
  pick.value = o.value ?? '';
  /** What is ticked, by value (kept across searches). */
  const chosen = new Map<string, EntityItem>(o.initial.map((v) => [v, typedItem(v)]));
  let found: EntityItem[] = [];
  let problem: string | undefined;
  let updating = false;
  const update = () => {
    const typed = pick.value.trim();
    const listed = new Map<string, EntityItem>();
    for (const item of [...found, ...rememberedItems(o.remembered)]) if (!listed.has(item.value)) listed.set(item.value, item);
    // A ticked item keeps its server label once it was seen there.
    for (const [value, item] of chosen) if (listed.has(value) && item.label.startsWith('$(edit)')) chosen.set(value, listed.get(value)!);
    const extra = [...chosen.values()].filter((c) => !listed.has(c.value));
    const typedExtra = typed && !listed.has(typed) && !chosen.has(typed) ? [typedItem(typed)] : [];
    const error: EntityItem[] = problem ? [{ label: `$(error) ${problem}`, value: '', alwaysShow: true }] : [];
    const items = [...error, ...extra, ...typedExtra, ...[...listed.values()].map((i) => chosen.get(i.value) ?? i)];
    updating = true;
    pick.items = items;
    pick.selectedItems = items.filter((i) => i.value && chosen.has(i.value));
    updating = false;
  };
  update();
  const stop = searchAsYouType(pick, o.search, (items) => {
    found = items;
    update();
  });
  return runStep<PickedTables>(
    pick,
    (finish) => {
      pick.onDidChangeValue(update);
      pick.onDidChangeSelection((selection) => {
        if (updating) return;
        const ticked = new Set(selection.map((s) => s.value));
        for (const item of pick.items) {
          if (!item.value) continue;
          if (ticked.has(item.value)) chosen.set(item.value, item);
          else chosen.delete(item.value);
        }
      });
      pick.onDidAccept(async () => {
        const typed = pick.value.trim();
        // Nothing ticked: Enter takes the typed text (or the highlighted item).
        if (chosen.size === 0) {
          const active = pick.activeItems[0];
          if (active?.value) chosen.set(active.value, active);
          else if (typed) chosen.set(typed, typedItem(typed));
        }
        const values = [...chosen.keys()];
        if (values.length === 0) {
          problem = 'Tick at least one table, or type a table ID or name.';
          update();
          return;
        }
        pick.busy = true;
        pick.enabled = false;
        try {
          problem = await o.check(values);
        } catch (error) {
          problem = error instanceof Error ? error.message : String(error);
        } finally {
          pick.busy = false;
          pick.enabled = true;
        }
        if (problem) update();
        else finish({ tables: values, value: typed });
      });
    },
    stop,
  );
}
