import { hostOf } from '../api/names';
import type { Services } from '../services';
import { createGroup, type GroupsView, refreshGroups, requestMembership, resolveRequest, searchGroups, showMoreGroups } from './commands';
import { GroupsTreeProvider } from './groupsTree';
import { addMember, copyGroupName, leaveGroup, openGroupInBrowser, undoApprove } from './memberCommands';

/** Registers the groups feature: the Groups view and its commands. Returns the tree's data provider. */
export function registerGroups(services: Services): GroupsTreeProvider {
  const { context, connection, log } = services;
  const model = services.platform.groups;
  const tree = new GroupsTreeProvider(model, connection, log);
  const view = services.contributions.treeView('datagrok.groups', { treeDataProvider: tree, showCollapseAll: true });

  const describeServer = () => {
    try {
      view.description = connection.isSignedIn ? hostOf(connection.baseUrl()) : undefined;
    } catch {
      view.description = undefined;
    }
  };
  describeServer();

  context.subscriptions.push(
    tree,
    view,
    connection.onDidChange(() => {
      describeServer();
      view.badge = undefined;
    }),
    // The count of requests waiting for the user, on the view (and its activity bar icon).
    model.onDidLoadPendingRequests((count) => {
      view.badge = count > 0 ? { value: count, tooltip: `${count} pending membership request${count === 1 ? '' : 's'}` } : undefined;
    }),
  );
  const g: GroupsView = { services, tree, view };
  const { commands } = services;
  context.subscriptions.push(
    commands.register('datagrok.groups.refresh', (inv) => refreshGroups(g, inv)),
    commands.register('datagrok.groups.showMore', (inv) => showMoreGroups(g, inv)),
    commands.register('datagrok.groups.search', (inv) => searchGroups(g, inv)),
    commands.register('datagrok.groups.create', (inv) => createGroup(g, inv)),
    commands.register('datagrok.groups.requestMembership', (inv) => requestMembership(g, inv)),
    commands.register('datagrok.groups.approveRequest', (inv) => resolveRequest(g, true, inv)),
    commands.register('datagrok.groups.denyRequest', (inv) => resolveRequest(g, false, inv)),
    commands.register('datagrok.groups.undoApprove', (inv) => undoApprove(g, inv)),
    commands.register('datagrok.groups.openInBrowser', (inv) => openGroupInBrowser(g, inv)),
    commands.register('datagrok.groups.copyName', (inv) => copyGroupName(g, inv)),
    commands.register('datagrok.groups.addMember', (inv) => addMember(g, inv)),
    commands.register('datagrok.groups.leave', (inv) => leaveGroup(g, inv)),
  );
  return tree;
}
