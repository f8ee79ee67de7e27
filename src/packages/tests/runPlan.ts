// What a Test Explorer request runs, as grok test invocations: one per package, category or test asked
// for (a file: one per category it registers), the narrower ones dropped when a wider one of the same
// package covers them; and each test item's key (`<Category>\0<Test>`) to settle results on.
import type * as vscode from 'vscode';
import type { DiscoveredCategory } from '../../platform/packages/tests/discovery';
import type { ItemRef, PackageTestTree } from './testTree';

export interface RunUnit {
  packageDir: string;
  category?: string;
  test?: string;
}

export const testKey = (category: string, test: string) => `${category}\u0000${test}`;

/** The invocations for the items asked for (all packages when none), minus the excluded items. */
export function planUnits(tree: PackageTestTree, include: readonly vscode.TestItem[] | undefined, roots: vscode.TestItem[]): RunUnit[] {
  const units: RunUnit[] = [];
  const add = (u: RunUnit) => {
    if (!units.some((x) => x.packageDir === u.packageDir && x.category === u.category && x.test === u.test)) units.push(u);
  };
  for (const item of include ?? roots) {
    const ref: ItemRef | undefined = tree.refs.get(item.id);
    if (!ref) continue;
    if (ref.test !== undefined) add({ packageDir: ref.packageDir, category: ref.category, test: ref.test });
    else if (ref.category !== undefined) add({ packageDir: ref.packageDir, category: ref.category });
    else if (ref.file !== undefined) for (const c of tree.packages.get(ref.packageDir)?.files.get(ref.file) ?? []) add({ packageDir: ref.packageDir, category: c.name });
    else add({ packageDir: ref.packageDir });
  }
  // A package run covers its categories and tests; a category run (a prefix, as grok matches) its tests.
  return units.filter(
    (u) =>
      !units.some(
        (w) =>
          w !== u &&
          w.packageDir === u.packageDir &&
          (w.category === undefined
            ? u.category !== undefined
            : w.test === undefined &&
              u.category !== undefined &&
              u.category.toLowerCase().startsWith(w.category.toLowerCase()) &&
              (u.test !== undefined || u.category !== w.category)),
      ),
  );
}

/** A package's categories over all its test files (a category spread over files is one). */
export function packageCategories(tree: PackageTestTree, packageDir: string): DiscoveredCategory[] {
  const merged = new Map<string, DiscoveredCategory>();
  for (const categories of tree.packages.get(packageDir)?.files.values() ?? [])
    for (const c of categories) {
      const known = merged.get(c.name);
      if (known) known.tests.push(...c.tests);
      else merged.set(c.name, { ...c, tests: [...c.tests] });
    }
  return [...merged.values()];
}

/** Each test item of a package by its key, and the file and item of each category. */
export function packageItems(tree: PackageTestTree, packageItem: vscode.TestItem | undefined): { tests: Map<string, vscode.TestItem>; categories: Map<string, vscode.TestItem> } {
  const tests = new Map<string, vscode.TestItem>();
  const categories = new Map<string, vscode.TestItem>();
  packageItem?.children.forEach((file) => {
    file.children.forEach((cat) => {
      const ref = tree.refs.get(cat.id);
      if (ref?.category !== undefined && !categories.has(ref.category)) categories.set(ref.category, cat);
      cat.children.forEach((t) => {
        const r = tree.refs.get(t.id);
        if (r?.category !== undefined && r.test !== undefined && !tests.has(testKey(r.category, r.test))) tests.set(testKey(r.category, r.test), t);
      });
    });
  });
  return { tests, categories };
}
