// The Groups view and its commands against the emulator's demo data: what the tree shows, what the
// commands change on the server, and how failures show up in the tree.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { GroupsNode } from '../../src/groups/node';
import { clearEmulatorRequests, control, emulator, emulatorRequests, resetEmulator, signIn, unescapeMarkdown, webWorkbenchAsksBeforeOpening } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const ID = {
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

const state = () => control<State>('GET', 'state');

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

describe('Groups view and membership requests', () => {
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

  it('shows "Pending requests", "My groups" and "All groups" at the top, with stable ids', async () => {
    const roots = await children();
    assert.deepEqual(roots.map(label), ['Pending requests', 'My groups', 'All groups']);
    assert.deepEqual(
      roots.map((n) => item(n).id),
      ['pending', 'mine', 'all'],
    );
  });

  it('lists the pending requests to the groups the user administers, actionable', async () => {
    const pending = await children(await child(undefined, 'Pending requests'));
    assert.deepEqual(pending.map(label), ['Bob Brown', 'Carol Chen'], 'not alice → Data Science: demo is no admin there');
    for (const n of pending) {
      const i = item(n);
      assert.equal(i.contextValue, 'datagrok.request.actionable');
      assert.equal(i.description, 'to Chemists');
      assert.ok(i.id?.startsWith('pending/'));
      // Plain wording: who, which group; the seeded note only restates that, so it is left out.
      const tooltip = (i.tooltip as vscode.MarkdownString).value;
      assert.match(tooltip, /Request to join \*\*Chemists\*\*/);
      assert.doesNotMatch(tooltip, /asks to join|wants to join/);
    }
  });

  it("shows the user's own group and memberships under My groups, as on the server", async () => {
    const mine = await children(await child(undefined, 'My groups'));
    const me = item(mine[0]);
    assert.equal(me.label, 'demo');
    assert.equal(me.description, 'Demo User · you', 'no "personal" jargon');
    assert.equal(me.contextValue, 'datagrok.group');
    const server = (await state()).groups.find((g) => g.id === ID.demo)!;
    const expected = server.parents.map((r) => r.parent.name).sort((a, b) => a.localeCompare(b));
    assert.deepEqual(mine.slice(1).map(label), expected);
    assert.deepEqual(expected, ['All users', 'Chemists', 'Data Science', 'Developers']);
    const chemists = mine.find((n) => label(n) === 'Chemists')!;
    assert.match(String(item(chemists).description), /admin/);
    assert.doesNotMatch(String(item(mine.find((n) => label(n) === 'Developers')!).description), /admin/);
    const tooltip = item(chemists).tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /Chemists/);
    assert.match(unescapeMarkdown(tooltip.value), new RegExp(ID.chemists));
    assert.match(tooltip.value.replace(/&nbsp;/g, ' '), /Medicinal chemistry team/);
  });

  it('shows members, memberships and, where the user is admin, pending requests under a group', async () => {
    const chemists = await child(await child(undefined, 'My groups'), 'Chemists');
    assert.deepEqual(await labels(chemists), ['Members', 'Memberships', 'Pending requests']);
    const members = await children(await child(chemists, 'Members'));
    const server = (await state()).groups.find((g) => g.id === ID.chemists)!;
    assert.deepEqual(members.map(label), server.children.map((r) => r.child.name).sort());
    assert.match(String(item(members.find((n) => label(n) === 'demo')!).description), /admin/);
    assert.equal(item(members[0]).id, `mine/${ID.chemists}/members/${ID.alice}`);
    assert.deepEqual(await labels(await child(chemists, 'Pending requests')), ['Bob Brown', 'Carol Chen']);
    assert.deepEqual(await labels(await child(chemists, 'Memberships')), ['Not a member of any group']);

    const developers = await child(await child(undefined, 'My groups'), 'Developers');
    assert.deepEqual(await labels(developers), ['Members', 'Memberships'], 'no requests where the user is not admin');
  });

  it('All groups holds people and groups apart, each with its count', async () => {
    const server = (await state()).groups;
    const kinds = await children(await child(undefined, 'All groups'));
    assert.deepEqual(kinds.map(label), ['Groups', 'People']);
    assert.deepEqual(
      kinds.map((n) => item(n).description),
      [String(server.filter((g) => !g.personal).length), String(server.filter((g) => g.personal).length)],
    );
    const people = await children(kinds[1]);
    assert.deepEqual(people.map(label), ['alice', 'bob', 'carol', 'dave', 'demo']);
    assert.ok(people.every((n) => (item(n).iconPath as vscode.ThemeIcon).id === 'account'));
    assert.ok(people.every((n) => !String(item(n).description).includes('personal')));
  });

  it('lists the groups by name; groups the user may join are marked joinable', async () => {
    const all = await children(await child(await child(undefined, 'All groups'), 'Groups'));
    const server = (await state()).groups.filter((g) => !g.personal);
    assert.equal(all.length, server.length);
    const names = all.map(label);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
    );
    assert.equal(item(all.find((n) => label(n) === 'Biologists')!).contextValue, 'datagrok.group.joinable');
    assert.equal(item(all.find((n) => label(n) === 'Chemists')!).contextValue, 'datagrok.group.admin');
    assert.equal(item(all.find((n) => label(n) === 'Developers')!).contextValue, 'datagrok.group.member');
    assert.equal(item(all.find((n) => label(n) === 'Administrators')!).contextValue, 'datagrok.group.joinable');
    const bob = await child(await child(await child(undefined, 'All groups'), 'People'), 'bob');
    assert.equal(item(bob).contextValue, 'datagrok.group', 'users are not joinable');
    assert.ok(all.every((n) => (item(n).iconPath as vscode.ThemeIcon).id === 'organization'));
  });

  it('copies the ID of a tree item', async () => {
    const biologists = await child(await child(await child(undefined, 'All groups'), 'Groups'), 'Biologists');
    assert.equal(await run('datagrok.copyId', biologists), ID.biologists);
  });

  it('approves a request from its tree item: the requester becomes a member; the row stays in place, marked, with Undo', async () => {
    const before = await children(await child(undefined, 'Pending requests'));
    const bob = before.find((n) => label(n) === 'Bob Brown')!;
    const redraw = nextTreeChange();
    await run('datagrok.groups.approveRequest', bob);
    await redraw;
    const s = await state();
    const request = s.requests.find((r) => r.id === ID.bobToChemists)!;
    assert.equal(request.approved, true);
    assert.ok(request.resolutionDate);
    assert.ok(
      s.groups.find((g) => g.id === ID.chemists)!.children.some((r) => r.child.id === ID.bob),
      'bob is a member of Chemists',
    );
    // Nothing shifts: the same rows, same ids, in the same order; Bob's is marked approved, Carol's still actionable.
    const after = await children(await child(undefined, 'Pending requests'));
    assert.deepEqual(
      after.map((n) => item(n).id),
      before.map((n) => item(n).id),
    );
    assert.equal(item(after[0]).description, 'to Chemists · approved');
    assert.equal(item(after[0]).contextValue, 'datagrok.request.approved');
    assert.equal((item(after[0]).iconPath as vscode.ThemeIcon).id, 'check');
    assert.equal(item(after[1]).contextValue, 'datagrok.request.actionable');
    const menus = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.menus['view/item/context'] as Array<{ command: string; when: string; group: string }>;
    const inline = menus.filter((m) => m.when.includes('viewItem == datagrok.request.approved') && m.group.startsWith('inline'));
    assert.deepEqual(
      inline.map((m) => m.command),
      ['datagrok.groups.undoApprove'],
      'the approved row offers Undo only, where Deny was (inline@2): not where Approve was',
    );
    const chemists = await child(await child(undefined, 'My groups'), 'Chemists');
    assert.ok((await labels(await child(chemists, 'Members'))).includes('bob'));
    // Under the group too, the handled request stays listed.
    assert.deepEqual(await labels(await child(chemists, 'Pending requests')), ['Bob Brown', 'Carol Chen']);
  });

  it('Undo of an approve removes the member again on the server; the request stays approved there', async () => {
    const bobRow = await child(await child(undefined, 'Pending requests'), 'Bob Brown');
    await clearEmulatorRequests();
    const redraw = nextTreeChange();
    const undone = await run<MembershipRequest>('datagrok.groups.undoApprove', bobRow);
    await redraw;
    assert.equal(undone.id, ID.bobToChemists);
    const s = await state();
    const chemists = s.groups.find((g) => g.id === ID.chemists)!;
    assert.ok(!chemists.children.some((r) => r.child.id === ID.bob), 'bob is no longer a member');
    assert.ok(
      chemists.children.some((r) => r.child.id === ID.demo && r.isAdmin),
      'the other members and admin flags are kept',
    );
    assert.ok(chemists.children.some((r) => r.child.id === ID.alice && !r.isAdmin));
    assert.equal(s.requests.find((r) => r.id === ID.bobToChemists)!.approved, true);
    const saves = (await emulatorRequests()).filter((r) => r.method === 'POST').map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(saves, ['POST /api/public/v1/groups'], 'one save of the group with its relations');
    const row = await child(await child(undefined, 'Pending requests'), 'Bob Brown');
    assert.equal(item(row).description, 'to Chemists · approval undone');
    assert.equal(item(row).contextValue, 'datagrok.request.undone');
    // Nothing left to undo.
    await assert.rejects(run('datagrok.groups.undoApprove', { requestId: ID.bobToChemists }), /nothing to undo/);
    await assert.rejects(run('datagrok.groups.undoApprove', {}), /needs \{ requestId \}/);
  });

  it('denies a request given { requestId }: no membership, and the tree refreshes', async () => {
    const redraw = nextTreeChange();
    assert.equal(await run('datagrok.groups.denyRequest', { requestId: ID.carolToChemists }), undefined);
    await redraw;
    const s = await state();
    assert.equal(s.requests.find((r) => r.id === ID.carolToChemists)!.approved, false);
    assert.ok(!s.groups.find((g) => g.id === ID.chemists)!.children.some((r) => r.child.id === ID.carol));
    // Listed in place, marked denied, until a refresh.
    const rows = await children(await child(undefined, 'Pending requests'));
    assert.deepEqual(
      rows.map((n) => `${label(n)}: ${item(n).description}`),
      ['Bob Brown: to Chemists · approval undone', 'Carol Chen: to Chemists · denied'],
    );
    assert.equal(item(rows[1]).contextValue, 'datagrok.request.denied');
    await run('datagrok.groups.refresh');
    assert.deepEqual(await labels(await child(undefined, 'Pending requests')), ['No pending requests to the groups you administer']);
  });

  it('asks before a deny by default (approve has Undo); the setting can ask for both or neither', async () => {
    const setting = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.configuration.properties['datagrok.groups.confirmApproveDeny'];
    assert.equal(setting.default, 'deny');
    assert.deepEqual(setting.enum, ['deny', 'always', 'never']);
    assert.equal(vscode.workspace.getConfiguration('datagrok.groups').get('confirmApproveDeny'), 'deny');
  });

  it('rejects approving a resolved request with the server reason', async () => {
    await assert.rejects(run('datagrok.groups.approveRequest', { requestId: ID.carolToChemists }), /already denied/);
    await assert.rejects(run('datagrok.groups.approveRequest', {}), /needs \{ requestId \}/);
  });

  it('requests membership of a group from its tree item', async () => {
    const biologists = await child(await child(await child(undefined, 'All groups'), 'Groups'), 'Biologists');
    const request = await run<MembershipRequest>('datagrok.groups.requestMembership', biologists);
    assert.equal(request.to?.id, ID.biologists);
    assert.equal(request.from?.id, ID.demo);
    const stored = (await state()).requests.find((r) => r.id === request.id);
    assert.ok(stored, 'the request exists on the server');
    assert.equal(stored.approved ?? null, null);
  });

  it('requests membership by { groupId }; bad options are refused before any request', async () => {
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.groups.requestMembership', {}), /needs \{ groupId \}/);
    await assert.rejects(run('datagrok.groups.requestMembership', { groupId: 42 }), /needs \{ groupId \}/);
    assert.deepEqual(await emulatorRequests(), []);
    await assert.rejects(run('datagrok.groups.requestMembership', { groupId: ID.chemists }), /already a member/);
    const request = await run<MembershipRequest>('datagrok.groups.requestMembership', { groupId: 'a4b45840-9a50-11e6-9cc9-8546b8bf62e6' }).catch((e: Error) => e);
    assert.ok(request instanceof Error && /already a member/.test(request.message), 'demo is in All users');
  });

  it('creates a group: the user administers it and it shows in My groups', async () => {
    const created = await run<Group>('datagrok.groups.create', { name: 'Toxicologists', friendlyName: 'Toxicology', description: 'Tox team' });
    assert.equal(created.name, 'Toxicologists');
    const server = (await state()).groups.find((g) => g.name === 'Toxicologists');
    assert.ok(server);
    assert.equal(server.friendlyName, 'Toxicology');
    assert.equal(server.description, 'Tox team');
    const node = await child(await child(undefined, 'My groups'), 'Toxicologists');
    assert.match(String(item(node).description), /Toxicology · admin/);
  });

  it("group menu: Copy Name copies the name (a user: the login); Open Groups Page opens the server's Groups page", async () => {
    const chemists = await child(await child(undefined, 'My groups'), 'Chemists');
    assert.equal(await run('datagrok.groups.copyName', chemists), 'Chemists');
    assert.equal(await vscode.env.clipboard.readText(), 'Chemists');
    assert.equal(await run('datagrok.groups.copyName', { groupId: ID.bob }), 'bob');
    await assert.rejects(run('datagrok.groups.copyName', {}), /needs \{ groupId \}/);
    await clearEmulatorRequests();
    assert.equal(await run('datagrok.groups.openInBrowser', chemists), `${new URL(emulator.url).origin}/groups`);
    // VS Code 1.103's web workbench opens the page only after a click: the headless browser blocks a
    // window.open without a user gesture, and that workbench then asks "The browser blocked opening a new
    // tab or window… Retry". VS Code 1.139 opens it directly: there the browser must really go there.
    if (webWorkbenchAsksBeforeOpening()) return;
    // The workbench's browser really goes there (unauthenticated, as a person's browser would).
    let visits: string[] = [];
    for (let i = 0; i < 50 && visits.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      visits = (await emulatorRequests()).filter((r) => r.method === 'GET' && r.path === '/groups').map((r) => r.path);
    }
    assert.deepEqual(visits, ['/groups'], 'the browser opened the Groups page');
  });

  it('group menu: Add Member (admins) saves the group with the new relation; the rest of its relations are kept', async () => {
    const toxicologists = (await state()).groups.find((g) => g.name === 'Toxicologists')!;
    assert.equal(item(await child(await child(undefined, 'My groups'), 'Toxicologists')).contextValue, 'datagrok.group.admin');
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.groups.addMember', { groupId: toxicologists.id }), /needs \{ memberId \}/);
    await assert.rejects(run('datagrok.groups.addMember', { groupId: toxicologists.id, memberId: ID.alice, admin: 'yes' }), /admin must be true or false/);
    assert.deepEqual(await emulatorRequests(), [], 'bad options send nothing');
    const saved = await run<Group>('datagrok.groups.addMember', { groupId: toxicologists.id, memberId: ID.alice, admin: true });
    assert.equal(saved.id, toxicologists.id);
    const after = (await state()).groups.find((g) => g.id === toxicologists.id)!;
    assert.deepEqual(after.children.map((r) => `${r.child.name}${r.isAdmin ? ' (admin)' : ''}`).sort(), ['alice (admin)', 'demo (admin)']);
    assert.equal(after.description, 'Tox team', 'the group itself is unchanged');
    const members = await labels(await child(await child(await child(undefined, 'My groups'), 'Toxicologists'), 'Members'));
    assert.deepEqual(members, ['alice', 'demo']);
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.groups.addMember', { groupId: toxicologists.id, memberId: ID.alice, admin: true }), /already an administrator/);
    assert.ok(
      (await emulatorRequests()).every((r) => r.method === 'GET'),
      'nothing saved when nothing changes',
    );
  });

  it('group menu: Leave (admins only, never the last admin) removes the user; the group stays with its other members', async () => {
    const toxicologists = (await state()).groups.find((g) => g.name === 'Toxicologists')!;
    await assert.rejects(run('datagrok.groups.leave', { groupId: ID.developers }), /Only an administrator of Developers/);
    await assert.rejects(run('datagrok.groups.leave', { groupId: ID.chemists }), /only administrator of Chemists/);
    await assert.rejects(run('datagrok.groups.leave', { groupId: ID.demo }), /your own user/);
    await assert.rejects(run('datagrok.groups.leave', { groupId: ID.biologists }), /not a direct member/);
    const redraw = nextTreeChange();
    assert.equal(await run('datagrok.groups.leave', { groupId: toxicologists.id }), undefined);
    await redraw;
    const after = (await state()).groups.find((g) => g.id === toxicologists.id)!;
    assert.deepEqual(
      after.children.map((r) => `${r.child.name}${r.isAdmin ? ' (admin)' : ''}`),
      ['alice (admin)'],
    );
    assert.ok(!(await labels(await child(undefined, 'My groups'))).includes('Toxicologists'));
  });

  it('refuses a bad group name before calling the server', async () => {
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.groups.create', { name: '  ' }), /Type a name/);
    await assert.rejects(run('datagrok.groups.create', { name: 'a/b' }), /must not contain/);
    await assert.rejects(run('datagrok.groups.create', {}), /needs \{ name \}/);
    assert.deepEqual(await emulatorRequests(), []);
  });

  it("searches with the server's lookup and shows the results under a Search node", async () => {
    await clearEmulatorRequests();
    const found = await run<Group[]>('datagrok.groups.search', { text: 'chem' });
    assert.deepEqual(
      found.map((g) => g.name),
      ['Chemists'],
    );
    assert.ok(
      (await emulatorRequests()).some((r) => r.path.includes('/groups/lookup')),
      'the server lookup was used',
    );
    const roots = await children();
    assert.equal(label(roots[0]), 'Search: chem');
    assert.deepEqual(await labels(roots[0]), ['Chemists']);
    await run('datagrok.groups.search', { text: '' });
    assert.deepEqual(await labels(), ['Pending requests', 'My groups', 'All groups']);
  });

  it('shows "Sign in" in place of the items after a 401 mid-session; nothing else breaks', async () => {
    await run('datagrok.groups.refresh');
    await children(await child(undefined, 'My groups'));
    // The 401 meets one request only the Pending section makes: the requests to Chemists.
    const chemistsRequests = `GET /api/public/v1/groups/${ID.chemists}/requests`;
    await control('POST', 'faults', { count: 1, status: 401, match: chemistsRequests });
    await clearEmulatorRequests();
    await run('datagrok.groups.refresh');
    const pending = await children(await child(undefined, 'Pending requests'));
    assert.deepEqual(await control('GET', 'faults'), [], 'the fault was used');
    const rejected = (await emulatorRequests()).filter((r) => r.status === 401).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(rejected, [chemistsRequests]);
    assert.equal(pending.length, 1);
    const error = item(pending[0]);
    assert.equal(error.id, `pending/error-${ID.chemists}`);
    assert.equal(error.label, `The API key was rejected by ${new URL(emulator.url).host}. Sign in`);
    assert.equal(error.command?.command, 'datagrok.signIn');
    // The rest still works: other sections, then the same section on refresh.
    assert.ok((await labels(await child(await child(undefined, 'All groups'), 'Groups'))).includes('Biologists'));
    await run('datagrok.groups.refresh');
    assert.deepEqual(await labels(await child(undefined, 'Pending requests')), ['No pending requests to the groups you administer']);
    // A command that meets a 401 rejects with a message saying so.
    const requestToDataScience = `POST /api/public/v1/groups/${ID.dataScience}/request`;
    await control('POST', 'faults', { count: 1, status: 401, match: requestToDataScience });
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.groups.requestMembership', { groupId: ID.dataScience }), /API key was rejected \(401\)/);
    assert.deepEqual(await control('GET', 'faults'), [], 'the fault was used');
    assert.deepEqual(
      (await emulatorRequests()).map((r) => `${r.method} ${r.path} ${r.status}`),
      [`${requestToDataScience} 401`],
    );
  });

  it('shows a clear error item when the server is down, and Retry reloads', async () => {
    await run('datagrok.groups.refresh');
    await children(await child(undefined, 'My groups'));
    // Every attempt of the listing (GET is retried) meets an nginx 502 page.
    await control('POST', 'faults', { count: 8, status: 502, html: true, match: 'GET /api/public/v1/groups' });
    const all = await child(undefined, 'All groups');
    const failed = await children(all);
    await control('DELETE', 'faults');
    assert.equal(failed.length, 1);
    const error = item(failed[0]);
    assert.match(String(error.label), /unavailable \(502\)/);
    assert.doesNotMatch(String(error.label), /<html|<body/i);
    assert.equal(error.command?.command, 'datagrok.groups.refresh');
    const redraw = nextTreeChange();
    await run(error.command!.command, ...(error.command!.arguments ?? []));
    await redraw;
    assert.ok((await labels(await child(all, 'Groups'))).includes('Biologists'));
  });

  it('shows a clear error item when the connection drops, and Retry reloads', async () => {
    await run('datagrok.groups.refresh');
    await children(await child(undefined, 'My groups'));
    await control('POST', 'faults', { count: 8, resetBeforeResponse: true, match: 'GET /api/public/v1/groups' });
    const all = await child(undefined, 'All groups');
    const failed = await children(all);
    await control('DELETE', 'faults');
    assert.equal(failed.length, 1);
    const error = item(failed[0]);
    assert.equal(error.contextValue, 'datagrok.error');
    // The client's own network message (the undici code in parentheses), not a raw socket error.
    const host = new URL(emulator.url).host.replaceAll('.', '\\.');
    assert.match(
      String(error.label),
      new RegExp(`^Listing groups failed: the connection to ${host} was interrupted \\([A-Z_]+\\)\\. Check your network connection and try again\\.$`),
    );
    assert.equal(error.description, 'click to retry');
    // Retry reloads the section that failed.
    const retry = error.command!;
    assert.equal(retry.command, 'datagrok.groups.refresh');
    assert.equal(retry.arguments?.length, 1);
    assert.equal(retry.arguments[0], all, 'the All groups section');
    const redraw = nextTreeChange();
    await run(retry.command, ...retry.arguments);
    await redraw;
    assert.ok((await labels(await child(all, 'Groups'))).includes('Biologists'));
  });

  it('pages a large server: the first 200 groups by name, then "Show more…"', async function () {
    this.timeout(120_000);
    // 230 more groups through the real API (the emulator's --groups N is a launch option).
    for (let i = 1; i <= 230; i++) {
      const response = await fetch(`${emulator.url}/public/v1/groups`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bulk ${String(i).padStart(3, '0')}` }),
      });
      assert.equal(response.status, 200);
    }
    await run('datagrok.groups.refresh');
    const allSection = await child(undefined, 'All groups');
    await clearEmulatorRequests();
    const allNode = await child(allSection, 'Groups');
    const first = await children(allNode);
    // One listing request for the whole server; nothing per listed group (the rest is who the user is).
    const requests = await emulatorRequests();
    const listings = requests.filter((r) => r.method === 'GET' && r.path === '/api/public/v1/groups');
    assert.equal(listings.length, 1, `one listing request: ${JSON.stringify(requests)}`);
    const others = requests.filter((r) => !listings.includes(r));
    assert.ok(
      others.every((r) => r.path.includes(ID.demo) || /\/(groups\/current|user\/group)$/.test(r.path)),
      `no request per listed group: ${JSON.stringify(others)}`,
    );
    const total = (await state()).groups.filter((g) => !g.personal).length;
    assert.equal(first.length, 201);
    assert.equal(label(first[200]), `Show more… (200 of ${total})`);
    assert.deepEqual(first.slice(0, 7).map(label), ['Administrators', 'All users', 'Biologists', 'Bulk 001', 'Bulk 002', 'Bulk 003', 'Bulk 004']);
    const more = item(first[200]).command!;
    await clearEmulatorRequests();
    await run(more.command, ...(more.arguments ?? []));
    const next = await children(allNode);
    assert.deepEqual(await emulatorRequests(), [], 'the next page comes from the listing already loaded');
    assert.equal(next.length, total);
    assert.equal(new Set(next.map((n) => item(n).id)).size, total, 'ids stay unique');
  });

  it('loads the top level with one request per piece of data', async () => {
    await resetEmulator();
    await run('datagrok.groups.refresh');
    await clearEmulatorRequests();
    // What VS Code asks for on a first load: the sections, then the children of the expanded ones.
    const roots = await children();
    await Promise.all(roots.filter((n) => item(n).collapsibleState === vscode.TreeItemCollapsibleState.Expanded).map((n) => children(n)));
    const calls = (await emulatorRequests()).map((r) => `${r.method} ${r.path}`).sort();
    assert.deepEqual(calls, [
      `GET /api/public/v1/groups/${ID.chemists}/requests`,
      `GET /api/public/v1/groups/${ID.demo}/memberships`,
      `GET /api/public/v1/groups/${ID.demo}/memberships`, // ?admin=true: the plain listing carries no admin flag
    ]);
  });

  it('Retry on a group whose pending requests failed loads them again, and only them', async () => {
    await resetEmulator();
    await run('datagrok.groups.create', { name: 'Toxicologists' }); // a second administered group (no requests)
    await control('POST', 'faults', { count: 1, status: 500, match: `GET /api/public/v1/groups/${ID.chemists}/requests` });
    const section = await child(undefined, 'Pending requests');
    const failed = await children(section);
    assert.equal(failed.length, 1);
    const error = item(failed[0]);
    assert.equal(error.id, `pending/error-${ID.chemists}`);
    assert.equal(error.contextValue, 'datagrok.error');
    assert.equal(error.command?.command, 'datagrok.groups.refresh');
    await clearEmulatorRequests();
    const redraw = nextTreeChange();
    await run(error.command!.command, ...(error.command!.arguments ?? []));
    await redraw;
    assert.deepEqual(await labels(section), ['Bob Brown', 'Carol Chen']);
    // The group that answered stays cached: only the failed one is asked again.
    assert.deepEqual(
      (await emulatorRequests()).filter((r) => r.path.endsWith('/requests')).map((r) => `${r.method} ${r.path}`),
      [`GET /api/public/v1/groups/${ID.chemists}/requests`],
    );
  });
});
