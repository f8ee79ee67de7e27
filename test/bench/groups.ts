// Big-tree benchmark: a server with 10,000 extra groups. What the Groups view's "All groups" section does
// after the server answered, outside the editor: the platform's part (GroupsModel's sort by name, then
// the first page of 200 with each group's label and membership, then "Show more…" one page further),
// against the target of 150 ms each, and the heap the loaded groups take. The tree items themselves are
// made in the extension host (src/groups), not measured here. Not a test: it prints figures.
//
//   node --expose-gc out/test/bench/groups.js [--groups 10000] [--runs 5]
import { parseArgs } from 'node:util';
import type { Group } from '../../src/api/types';
import { displayName, GroupsModel, sortGroups } from '../../src/platform/groups/model';
import { PAGE_SIZE } from '../../src/platform/paging';
import { runBench, withEmulatorClient } from './childEmulator';
import { type Figure, median, printFigures } from './figures';

const KEY = 'bench-key';

function heapMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** One page of the section as the view labels it: name, and whether the user is a member or admin. */
function page(groups: readonly Group[], limit: number, member: ReadonlySet<string>, admin: ReadonlySet<string>) {
  return groups.slice(0, limit).map((g) => ({ label: displayName(g), member: member.has(g.id), admin: admin.has(g.id) }));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { groups: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } } });
  const runs = Math.max(1, Number(values.runs));
  await withEmulatorClient(KEY, ['--groups', String(Number(values.groups))], async (client) => {
    const answer: number[] = [];
    const first: number[] = [];
    const more: number[] = [];
    let count = 0;
    let heap = 0;
    for (let i = 0; i < runs; i++) {
      const before = heapMiB();
      const model = new GroupsModel({ client: async () => client, currentUser: () => client.currentUserGroup() });
      const ctx = await model.userContext();
      const t0 = performance.now();
      const raw = await client.listGroups();
      const t1 = performance.now();
      const sorted = sortGroups(raw);
      const shown = page(sorted, PAGE_SIZE, ctx.memberOf, ctx.adminOf);
      const t2 = performance.now();
      const shownMore = page(sorted, 2 * PAGE_SIZE, ctx.memberOf, ctx.adminOf);
      const t3 = performance.now();
      answer.push(t1 - t0);
      first.push(t2 - t1);
      more.push(t3 - t2);
      count = raw.length;
      heap = Math.max(heap, heapMiB() - before);
      if (shown.length !== Math.min(PAGE_SIZE, count) || shownMore.length !== Math.min(2 * PAGE_SIZE, count)) throw new Error('wrong page size');
    }
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const figures: Figure[] = [
      { name: `${count} groups: the server's answer (list, parse)`, value: ms(median(answer)), target: 'none (reference)', ok: true },
      { name: 'first level after the answer (sort, first page)', value: ms(median(first)), target: '<= 150 ms', ok: median(first) <= 150, miss: 'ABOVE' },
      { name: '"Show more…" (next page)', value: ms(median(more)), target: '<= 150 ms', ok: median(more) <= 150, miss: 'ABOVE' },
      { name: 'heap held by the loaded groups', value: `${heap.toFixed(1)} MiB`, target: 'reported', ok: true },
    ];
    printFigures(`Groups tree, platform part (median of ${runs}; the extension host's tree items are not included):`, figures);
  });
}

runBench(main);
