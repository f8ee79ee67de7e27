// The folder sync feature: link a workspace folder to a connector folder, compare, pull, push or sync after
// a preview. The model (no vscode) is src/platform/sync*.ts; here are the commands and the Source Control view.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { linkCommand, runCommand, showLinkedFolders, statusCommand } from './commands';
import { SyncStatusView } from './scm';

export function registerSync(services: Services): SyncStatusView {
  const view = new SyncStatusView();
  const c = services.commands;
  services.context.subscriptions.push(
    view,
    c.register('datagrok.sync.link', (inv) => linkCommand(services, view, inv)),
    c.register('datagrok.sync.status', (inv) => statusCommand(services, view, inv)),
    c.register('datagrok.sync.run', (inv) => runCommand(services, view, inv)),
    c.register('datagrok.sync.pull', (inv) => runCommand(services, view, inv, 'pull')),
    c.register('datagrok.sync.push', (inv) => runCommand(services, view, inv, 'push')),
    c.register('datagrok.sync.refresh', (inv) => statusCommand(services, view, inv)),
    // A linked folder in the workspace has its entry from the start (the light start loads the features when
    // the workspace holds a link), and one added later gets it too.
    vscode.workspace.onDidChangeWorkspaceFolders(() => void showLinkedFolders(services, view)),
    services.connection.onDidChange(() => void showLinkedFolders(services, view)),
  );
  void showLinkedFolders(services, view);
  return view;
}
