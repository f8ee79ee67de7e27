import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import type { Services } from '../services';
import { signInCommand, signOutCommand } from './signIn';
import { switchServerCommand } from './switchServer';

function entityIdOf(arg: unknown): string | undefined {
  if (arg && typeof arg === 'object') {
    const o = arg as { entityId?: unknown; id?: unknown };
    if (typeof o.entityId === 'string') return o.entityId;
    if (Object.getPrototypeOf(arg) === Object.prototype && typeof o.id === 'string') return o.id;
  }
  return undefined;
}

/** Registers sign-in, sign-out, server switching, the log command and Copy ID (the status bar item is made at activation). */
export function registerConnection(services: Services): void {
  const { context, commands, log } = services;
  context.subscriptions.push(
    commands.register('datagrok.signIn', (inv) => signInCommand(services, inv)),
    commands.register<Record<string, never>>('datagrok.signOut', (inv) => signOutCommand(services, inv)),
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
}
