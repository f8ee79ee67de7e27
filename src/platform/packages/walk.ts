// The files of a package that `grok check` reads: what `ignore-walk` (the walk grok uses) lists with the
// `.npmignore` and `.gitignore` of each folder, the rules of both applied in that order with minimatch's
// options. Ported rather than depended on: grok's exact file list is the point (a `src` line in
// `.npmignore` hides every function from grok), and only `src/`, `queries/` and `scripts/` are walked
// (grok reads nothing else), never `node_modules`.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Minimatch } from 'minimatch';

const IGNORE_FILES = ['.npmignore', '.gitignore'];
const OPTIONS = { matchBase: true, dot: true, flipNegate: true, nocase: true };
/** The folders whose files grok checks (bin/commands/check.js `runChecks`). */
export const CHECKED_FOLDERS = ['src', 'queries', 'scripts'];

/** Compiled rules by ignore file text: compiling is most of a walk's time, and the texts seldom change. */
const compiled = new Map<string, Minimatch[]>();

/** The rules of one ignore file's text, as ignore-walk reads them. */
export function ignoreRules(text: string): Minimatch[] {
  let rules = compiled.get(text);
  if (!rules) {
    rules = text
      .split(/\r?\n/)
      .filter((line) => !/^#|^$/.test(line.trim()))
      .map((rule) => new Minimatch(rule.trim(), OPTIONS));
    if (compiled.size > 200) compiled.clear();
    compiled.set(text, rules);
  }
  return rules;
}

class Folder {
  readonly rules: Minimatch[][];
  constructor(
    readonly abs: string,
    readonly basename: string,
    readonly parent: Folder | undefined,
    readonly exact: boolean,
    entries: string[],
  ) {
    this.rules = IGNORE_FILES.filter((f) => entries.includes(f)).map((f) => ignoreRules(readFileSync(path.join(abs, f), 'utf8')));
  }

  /** ignore-walk's `filterEntry`: whether `entry` (relative to this folder) is included. */
  includes(entry: string, partial: boolean, entryBasename?: string): boolean {
    let included = true;
    if (this.parent) {
      included = this.parent.includes(`${this.basename}/${entry}`, partial, entryBasename ?? entry);
      if (!included && !this.exact) return false;
    }
    for (const rules of this.rules)
      for (const rule of rules) {
        if (rule.negate === included) continue;
        const relative = !!entryBasename && rule.globParts.some((part) => part.length <= (part[part.length - 1] ? 1 : 2));
        const match =
          rule.match(`/${entry}`) ||
          rule.match(entry) ||
          (partial &&
            (rule.match(`/${entry}/`) ||
              rule.match(`${entry}/`) ||
              (rule.negate && (rule.match(`/${entry}`, true) || rule.match(entry, true))) ||
              (relative &&
                (rule.match(`/${entryBasename}/`) ||
                  rule.match(`${entryBasename}/`) ||
                  (rule.negate && (rule.match(`/${entryBasename}`, true) || rule.match(entryBasename as string, true)))))));
        if (match) included = rule.negate;
      }
    return included;
  }
}

/** The files grok checks in the package at `root`: '/'-separated paths relative to it. */
export function walkPackage(root: string): string[] {
  const found: string[] = [];
  const visit = (abs: string, basename: string, parent: Folder | undefined, exact: boolean, rel: string) => {
    const entries = readdirSync(abs, { withFileTypes: true });
    const folder = new Folder(
      abs,
      basename,
      parent,
      exact,
      entries.map((e) => e.name),
    );
    // ignore-walk tests each entry as a file and as a folder, then keeps a file that passes as a file and
    // enters a folder that passes as a folder: knowing which it is, one test is enough (symbolic links are
    // files to it, as to lstat).
    for (const e of entries) {
      const entry = e.name;
      if (!parent && !CHECKED_FOLDERS.includes(entry)) continue;
      if (entry === 'node_modules') continue;
      const entryRel = rel ? `${rel}/${entry}` : entry;
      if (!e.isDirectory()) {
        if (folder.includes(entry, false)) found.push(entryRel);
      } else if (folder.includes(entry, true)) visit(path.join(abs, entry), entry, folder, folder.includes(entry, false) || folder.includes(`${entry}/`, false), entryRel);
    }
  };
  visit(root, path.basename(root), undefined, false, '');
  return found.sort();
}
