// What the Groups suites share (groups.test.ts: the view; groupRequests.test.ts: requests and group
// commands): the demo data's ids, the emulator's groups and requests, and the tree as VS Code reads it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { GroupsNode } from '../../src/groups/node';
import { control, resetEmulator, signIn } from './support';

export const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
export const ID = {
  demo: 'd0000000-0000-4000-8000-000000000001',
  alice: 'd0000000-0000-4000-8000-000000000002',
  bob: 'd0000000-0000-4000-8000-000000000003',
  carol: 'd0000000-0000-4000-8000-000000000004',
  chemists: 'c0000000-0000-4000-8000-000000000001',
  dataScience: 'c0000000-0000-4000-8000-000000000002',
  biologists: 'c0000000-0000-4000-8000-000000000003',
  developers: 'ba9cd191-9a50-11e6-9cc9-910bf827f0ab',
  bobToChemists: 'e2000000-0000-4000-8000-000000000001',
  carolToChemists: 'e2000000-0000-4000-8000-000000000002',
};

interface StateGroup extends Omit<Group, 'children' | 'parents'> {
  children: Array<{ isAdmin: boolean; child: Group }>;
  parents: Array<{ isAdmin: boolean; parent: Group }>;
}

interface State {
  groups: StateGroup[];
  requests: MembershipRequest[];
}

export const state = () => control<State>('GET', 'state');

export function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

/**
 * Registers a Groups suite's setup (the emulator's demo data, signed in, the tree without a search) and
 * its cleanup, and returns the tree as VS Code reads it, ready once the suite's `before` has run.
 */
export function groupsSuite() {
  let api: DatagrokExtensionApi;

  const children = (node?: GroupsNode) => api.groupsTree.getChildren(node);
  const item = (node: GroupsNode) => api.groupsTree.getTreeItem(node) as vscode.TreeItem;
  const label = (node: GroupsNode) => String(item(node).label);
  const labels = async (node?: GroupsNode) => (await children(node)).map(label);
  async function child(parent: GroupsNode | undefined, name: string): Promise<GroupsNode> {
    const nodes = await children(parent);
    const found = nodes.find((n) => label(n) === name);
    assert.ok(found, `"${name}" not found among ${nodes.map(label).join(', ')}`);
    return found;
  }
  /** Resolves when the tree tells VS Code to redraw. */
  function nextTreeChange(): Promise<void> {
    return new Promise((resolve) => {
      const subscription = api.groupsTree.onDidChangeTreeData!(() => {
        subscription.dispose();
        resolve();
      });
    });
  }

  before(async () => {
    await resetEmulator();
    await signIn();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    await run('datagrok.groups.search', { text: '' });
    await run('datagrok.groups.refresh');
  });

  after(async () => {
    await control('DELETE', 'faults');
    await resetEmulator();
  });

  return { children, item, label, labels, child, nextTreeChange };
}
