// A name conflict (the bundle's entity's name is held on the server by another entity) resolved where it is
// shown: Skip, Adopt or Duplicate on its Source Control entry, or asked per entity in the push's plan. The choice
// is remembered for that folder's next push (the plan in memory, per entity), and forgotten once a push completes,
// the folder's manifest changes (a pull), or the view shows another folder. grok's `--on-conflict` semantics.
import { statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UserCancelled } from '../core/commands';
import { type ConflictChoice, choiceProblem, type PlanItem } from '../platform/bundles';

/** What each choice does, in the words the menu, the push's pick and the view's tooltip use. */
export const CHOICE_TEXT: Record<ConflictChoice, { label: string; icon: string; does: (type: string, holder: string) => string }> = {
  skip: {
    label: "Skip (Leave the Server's Entity)",
    icon: 'circle-slash',
    does: (type, holder) => `the push leaves the server's ${type} ${holder} as it is and does not push this one; what in the bundle needs it fails`,
  },
  adopt: {
    label: "Adopt the Server's Entity (Write Into It)",
    icon: 'link',
    does: (type, holder) => `the push writes this entity into the server's ${type} ${holder} (same id from now on, kept in idmap.json): its content becomes the bundle's`,
  },
  duplicate: {
    label: "Push as a Duplicate (Beside the Server's)",
    icon: 'copy',
    does: (type, holder) =>
      `the push saves this entity under its own id next to the server's ${type} ${holder}: two of that name (a server that keeps the name unique refuses it, and only this entity fails)`,
  },
};

/** The id of the server's entity that holds the name, from grok's reason `name taken by <id>`. */
export const holderOf = (reason: string) => reason.replace(/^name taken by /, '');

/** The folder's manifest as it is now (its time and size): another one is another bundle. */
function manifestStamp(dir: string): string {
  try {
    const { mtimeMs, size } = statSync(path.join(dir, 'manifest.json'));
    return `${mtimeMs}:${size}`;
  } catch {
    return '';
  }
}

/**
 * Choices made for a push, per folder and server, by bundle id: they hold while the folder's manifest.json stays
 * as it was when they were made (checked when read; the manifest's watcher forgets them at once, for the view).
 */
export class PushChoices implements vscode.Disposable {
  private readonly byFolder = new Map<string, { server: string; stamp: string; choices: Map<string, ConflictChoice> }>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the folder whose choices changed (made, or forgotten). */
  readonly onDidChange = this.changed.event;

  set(dir: string, server: string, id: string, choice: ConflictChoice): void {
    const held = this.held(dir);
    const choices = held?.server === server ? held.choices : new Map<string, ConflictChoice>();
    choices.set(id, choice);
    this.byFolder.set(dir, { server, stamp: manifestStamp(dir), choices });
    this.changed.fire(dir);
  }

  /** The folder's choices for a push to `server` (made against another server's twins, they do not apply). */
  of(dir: string, server: string): Record<string, ConflictChoice> {
    const held = this.held(dir);
    return held?.server === server ? Object.fromEntries(held.choices) : {};
  }

  private held(dir: string) {
    const held = this.byFolder.get(dir);
    if (held && held.stamp !== manifestStamp(dir)) {
      this.byFolder.delete(dir);
      return undefined;
    }
    return held;
  }

  /** Forgets a folder's choices (every folder's but `keep`, without `dir`). */
  clear(dir?: string, keep?: string): void {
    for (const d of [...this.byFolder.keys()]) {
      if ((dir !== undefined && d !== dir) || d === keep) continue;
      this.byFolder.delete(d);
      this.changed.fire(d);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

interface ChoiceItem extends vscode.QuickPickItem {
  choice?: ConflictChoice;
}

/**
 * The push's plan stopped at name conflicts: a pick per conflicting entity (what each choice does, the server's
 * entity it is about); "Review in Source Control" or Escape ends the push with nothing written.
 */
export async function askChoices(rows: PlanItem[], host: string): Promise<Map<string, ConflictChoice>> {
  const picked = new Map<string, ConflictChoice>();
  for (const [i, row] of rows.entries()) {
    const holder = holderOf(row.reason);
    const items: ChoiceItem[] = [
      ...(Object.entries(CHOICE_TEXT) as Array<[ConflictChoice, (typeof CHOICE_TEXT)[ConflictChoice]]>)
        .filter(([choice]) => !choiceProblem(row.entityType, choice))
        .map(([choice, t]) => ({ label: `$(${t.icon}) ${t.label}`, detail: t.does(row.entityType, holder), choice })),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(source-control) Review in Source Control', detail: 'nothing is pushed; each conflict offers the same choices in the Datagrok view' },
    ];
    const answer = await vscode.window.showQuickPick(items, {
      title: `Push to ${host}: name conflict${rows.length > 1 ? ` ${i + 1} of ${rows.length}` : ''} — ${row.entityType} ${row.name}`,
      placeHolder: `The server's ${row.entityType} ${holder} holds the name ${row.name}. What should the push do with the bundle's?`,
      ignoreFocusOut: true,
      matchOnDetail: true,
    });
    if (!answer?.choice) {
      if (answer) void vscode.commands.executeCommand('workbench.view.scm');
      throw new UserCancelled();
    }
    if (row.id) picked.set(row.id, answer.choice);
  }
  return picked;
}
