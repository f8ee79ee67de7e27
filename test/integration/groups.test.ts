// The Groups view against the emulator's demo data: what the tree shows, searching it, and how failures
// show up in it (Retry, paging a large server, one request per piece of data). Approving, denying and
// the group commands are in groupRequests.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Group } from '../../src/api/types';
import { groupsSuite, ID, run, state } from './groupSupport';
import { clearEmulatorRequests, control, emulator, emulatorRequests, resetEmulator, unescapeMarkdown } from './support';

describe('Groups view and membership requests', () => {
  const { children, item, label, labels, child, nextTreeChange } = groupsSuite();

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
