// A quick pick of remembered tables or dashboards that also accepts a typed ID or name, and the
// "Open in Browser" / "Copy ID" notification shown after a table or dashboard is made.
import * as vscode from 'vscode';
import type { CreationResult } from '../api/types';
import { UserCancelled } from '../core/commands';
import type { RememberedEntity } from '../platform/recent';

interface EntityItem extends vscode.QuickPickItem {
  value: string;
}

/** Resolves with the picked entity's ID, or the typed text; rejects with UserCancelled when dismissed. */
export function pickEntity(remembered: RememberedEntity[], ui: { title: string; placeholder: string }): Promise<string> {
  const quickPick = vscode.window.createQuickPick<EntityItem>();
  quickPick.title = ui.title;
  quickPick.placeholder = ui.placeholder;
  quickPick.ignoreFocusOut = true;
  const rememberedItems: EntityItem[] = remembered.map((e) => ({
    label: e.name,
    description: e.ID,
    detail: `Made here ${new Date(e.at).toLocaleString()}`,
    value: e.ID,
  }));
  const update = () => {
    const typed = quickPick.value.trim();
    const typedItem: EntityItem[] = typed ? [{ label: typed, description: 'the ID or name you typed', value: typed, alwaysShow: true }] : [];
    quickPick.items = [...typedItem, ...rememberedItems];
  };
  update();
  return new Promise<string>((resolve, reject) => {
    let done = false;
    quickPick.onDidChangeValue(update);
    quickPick.onDidAccept(() => {
      const picked = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
      if (!picked) return;
      done = true;
      resolve(picked.value);
      quickPick.dispose();
    });
    quickPick.onDidHide(() => {
      if (!done) reject(new UserCancelled());
      quickPick.dispose();
    });
    quickPick.show();
  });
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
