// The Test Explorer's tree of function tests: every `*.datagrok.json` / `*.dgparams.json` file of the
// workspace that holds "$expect", grouped by folder, then by function, then file (and its cases when it
// holds several). A file watcher keeps it current.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { positionOf } from '../core/jsonc';
import { jsoncParser } from '../platform/lazyModules';
import { caseId, parseTestFile, type TestCase } from '../platform/tests/cases';

export const TEST_FILES = '**/*.{datagrok,dgparams}.{json,jsonc}';
const EXCLUDE = '**/node_modules/**';

/**
 * A case to run: its file, its id (`<path>` or `<path>#<name>`, the path workspace-relative as VS Code
 * writes it: led by the folder's name in a window of several folders), its item in the tree.
 */
export interface CaseRef {
  id: string;
  uri: vscode.Uri;
  relativePath: string;
  /** The id and the path within the file's own workspace folder (the same as `id` and `relativePath` in a window of one folder). */
  names: string[];
  testCase: TestCase;
  item: vscode.TestItem;
}

interface FileEntry {
  uri: vscode.Uri;
  relativePath: string;
  /** Within its own workspace folder. */
  folderPath: string;
  cases: TestCase[];
  text: string;
  problem?: string;
}

export class TestTree implements vscode.Disposable {
  private readonly files = new Map<string, FileEntry>();
  /** The cases by their items' ids: an item handed back after a rebuild (a stale object) still finds its case. */
  private readonly refs = new Map<string, CaseRef>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private loaded: Promise<void> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the tree was rebuilt. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly controller: vscode.TestController) {
    const watcher = vscode.workspace.createFileSystemWatcher(TEST_FILES);
    this.subscriptions.push(
      watcher,
      this.changed,
      watcher.onDidCreate((uri) => void this.refresh(uri)),
      watcher.onDidChange((uri) => void this.refresh(uri)),
      watcher.onDidDelete((uri) => this.forget(uri)),
      // What VS Code itself does (save, create, delete, rename) is known at once, without the watcher.
      vscode.workspace.onDidSaveTextDocument((d) => (isTestFile(d.uri) ? void this.refresh(d.uri) : undefined)),
      vscode.workspace.onDidCreateFiles((e) => {
        for (const uri of e.files.filter(isTestFile)) void this.refresh(uri);
      }),
      vscode.workspace.onDidDeleteFiles((e) => {
        for (const uri of e.files) this.forget(uri);
      }),
      vscode.workspace.onDidRenameFiles((e) => {
        for (const { oldUri, newUri } of e.files) {
          this.forget(oldUri);
          if (isTestFile(newUri)) void this.refresh(newUri);
        }
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.reload()),
    );
  }

  /** Finds every test file once (the Test Explorer's first look, a run, the command). */
  ready(): Promise<void> {
    this.loaded ??= this.reload();
    return this.loaded;
  }

  async reload(): Promise<void> {
    const uris = await vscode.workspace.findFiles(TEST_FILES, EXCLUDE);
    this.files.clear();
    await Promise.all(uris.map((uri) => this.read(uri)));
    this.rebuild();
  }

  private forget(uri: vscode.Uri): void {
    if (this.files.delete(uri.toString())) this.rebuild();
  }

  /** Reads one file again (after an edit here, or the watcher's word). */
  async refresh(uri: vscode.Uri): Promise<void> {
    if (uri.path.includes('/node_modules/')) return;
    await this.ready();
    await this.read(uri);
    this.rebuild();
  }

  private async read(uri: vscode.Uri): Promise<void> {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      this.files.delete(uri.toString());
      return;
    }
    const { cases, problem } = parseTestFile(text);
    if (cases.length === 0 && !problem) this.files.delete(uri.toString());
    // Two folders of a window may hold the same relative path: ids lead with the folder's name there, as VS Code's own paths do.
    else this.files.set(uri.toString(), { uri, relativePath: vscode.workspace.asRelativePath(uri), folderPath: vscode.workspace.asRelativePath(uri, false), cases, text, problem });
  }

  /** Folder → function → file (→ cases), sorted by name. */
  private rebuild(): void {
    this.refs.clear();
    const { controller } = this;
    const folders = new Map<string, vscode.TestItem>();
    const functions = new Map<string, vscode.TestItem>();
    const entries = [...this.files.values()].sort((a, b) => a.relativePath.localeCompare(b.relativePath));
    for (const entry of entries) {
      const dir = path.posix.dirname(entry.relativePath);
      let folder = folders.get(dir);
      if (!folder) {
        const label = dir === '.' ? (vscode.workspace.getWorkspaceFolder(entry.uri)?.name ?? 'workspace') : dir;
        folder = controller.createTestItem(`folder:${dir}`, label, vscode.Uri.joinPath(entry.uri, '..'));
        folders.set(dir, folder);
      }
      const functionName = entry.cases.find((c) => c.functionName)?.functionName ?? '(no function)';
      const key = `${dir}\u0000${functionName}`;
      let group = functions.get(key);
      if (!group) {
        group = controller.createTestItem(`function:${dir}:${functionName}`, functionName);
        functions.set(key, group);
        folder.children.add(group);
      }
      group.children.add(this.fileItem(entry));
    }
    controller.items.replace([...folders.values()]);
    this.changed.fire();
  }

  private fileItem(entry: FileEntry): vscode.TestItem {
    const { controller } = this;
    const single = entry.cases.length === 1 && !entry.cases[0].inArray;
    const item = controller.createTestItem(entry.relativePath, path.posix.basename(entry.relativePath), entry.uri);
    item.range = new vscode.Range(0, 0, 0, 0);
    if (entry.problem) item.error = entry.problem;
    if (single) {
      this.refs.set(item.id, { ...refOf(entry, entry.cases[0]), item });
      item.description = entry.cases[0].writes ? 'writes data' : undefined;
      return item;
    }
    const ranges = caseRanges(entry.text);
    for (const c of entry.cases) {
      const ref = refOf(entry, c);
      const { id } = ref;
      const child = controller.createTestItem(id, c.name, entry.uri);
      child.range = ranges[c.index];
      child.description = c.writes ? 'writes data' : undefined;
      item.children.add(child);
      this.refs.set(id, { ...ref, item: child });
    }
    return item;
  }

  /**
   * The cases under an item (itself when it is a case), as the tree is now: the Test Explorer or a
   * failure message may hand back an item from before the watcher's last rebuild.
   */
  casesUnder(item: vscode.TestItem): CaseRef[] {
    const own = this.refs.get(item.id);
    if (own) return [own];
    const found: CaseRef[] = [];
    (this.current(item.id) ?? item).children.forEach((child) => {
      found.push(...this.casesUnder(child));
    });
    return found;
  }

  /** The tree's item of this id now (a folder, a function, a file of cases). */
  private current(id: string, items: vscode.TestItemCollection = this.controller.items): vscode.TestItem | undefined {
    let found: vscode.TestItem | undefined;
    items.forEach((item) => {
      found ??= item.id === id ? item : this.current(id, item.children);
    });
    return found;
  }

  all(): CaseRef[] {
    return [...this.refs.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  byId(id: string): CaseRef | undefined {
    return this.all().find((r) => r.id === id);
  }

  /** The top-level items (folders). */
  roots(): vscode.TestItem[] {
    const roots: vscode.TestItem[] = [];
    this.controller.items.forEach((item) => {
      roots.push(item);
    });
    return roots;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

function refOf(entry: FileEntry, testCase: TestCase): Omit<CaseRef, 'item'> {
  const id = caseId(entry.relativePath, testCase);
  const names = [...new Set([id, entry.relativePath, caseId(entry.folderPath, testCase), entry.folderPath])];
  return { id, uri: entry.uri, relativePath: entry.relativePath, names, testCase };
}

function isTestFile(uri: vscode.Uri): boolean {
  return /\.(datagrok|dgparams)\.jsonc?$/i.test(uri.path);
}

/** Each array element's range (cases of an array file), for "go to test". */
function caseRanges(text: string): vscode.Range[] {
  const root = jsoncParser().parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root?.type !== 'array') return [];
  return (root.children ?? []).map((node) => {
    const start = positionOf(text, node.offset);
    const end = positionOf(text, node.offset + node.length);
    return new vscode.Range(start.line - 1, start.column - 1, end.line - 1, end.column - 1);
  });
}
