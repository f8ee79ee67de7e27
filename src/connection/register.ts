import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import type { Services } from '../services';
import { signInCommand, signOutCommand } from './signIn';
import { ConnectionStatusBar } from './statusBar';
import { switchServerCommand } from './switchServer';

function entityIdOf(arg: unknown): string | undefined {
  if (arg && typeof arg === 'object') {
    const o = arg as { entityId?: unknown; id?: unknown };
    if (typeof o.entityId === 'string') return o.entityId;
    if (Object.getPrototypeOf(arg) === Object.prototype && typeof o.id === 'string') return o.id;
  }
  return undefined;
}

/** Registers sign-in, sign-out, server switching, the status bar item and the log command. */
export function registerConnection(services: Services): { statusBar: vscode.StatusBarItem } {
  const { context, commands, log } = services;
  const statusBar = new ConnectionStatusBar(services.connection);
  context.subscriptions.push(
    statusBar,
    commands.register('datagrok.signIn', (inv) => signInCommand(services, inv)),
    commands.register('datagrok.signOut', () => signOutCommand(services)),
    commands.register('datagrok.switchServer', (inv) => switchServerCommand(services, inv)),
    commands.register('datagrok.showLog', async () => {
      log.show(true);
    }),
    // From a tree item (or `{ id }`): copies the item's platform ID and returns it.
    commands.register<{ id: string }>('datagrok.copyId', async (inv) => {
      const id = entityIdOf(inv.arg);
      if (!id) throw badInput('Copy ID works on a group or request item, or with { id }.');
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(`Copied ${id}`, 3000);
      return id;
    }),
  );
  return { statusBar: statusBar.item };
}
