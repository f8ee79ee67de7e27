// The Test Explorer's "Datagrok packages" branch: every Datagrok package of the workspace, its test
// sources (files under src/ that call category()), their categories and tests as written, found without
// running anything (src/platform/packages/tests/discovery.ts) and kept current as files change. Tests that
// run in the Node pass carry the `datagrok.node` tag: the Node profile runs only those.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type DiscoveredCategory, type DiscoveredTest, discoverTests } from '../../platform/packages/tests/discovery';
import { runsInNode } from '../../platform/packages/tests/grokTest';
import { findPackageFolders, packageFolderOf } from '../../platform/packages/recognition';

export const NODE_TAG = new vscode.TestTag('datagrok.node');
const SOURCES = 'src/**/*.{ts,js}';

/** What an item stands for: a package, a test file, a category of a file, a test. */
export interface ItemRef {
  packageDir: string;
  file?: string;
  category?: string;
  test?: string;
}

export interface PackageEntry {
  dir: string;
  name: string;
  /** Test files (absolute paths) and what each registers. */
  files: Map<string, DiscoveredCategory[]>;
  /** When a file of the package last changed here (ms): a publish before it is stale. */
  changedAt: number;
}

const toRange = (s: DiscoveredTest['span']) => new vscode.Range(s.start.line, s.start.character, s.end.line, s.end.character);

function packageName(dir: string): string {
  try {
    const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { friendlyName?: string; name?: string };
    return json.friendlyName ?? json.name ?? path.basename(dir);
  } catch {
    return path.basename(dir);
  }
}

export class PackageTestTree implements vscode.Disposable {
  readonly packages = new Map<string, PackageEntry>();
  /** What each item stands for, by item id (a rebuild makes new items with the same ids). */
  readonly refs = new Map<string, ItemRef>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private loaded: Promise<void> | undefined;
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with a package's folder after its tests were read again. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly controller: vscode.TestController) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{ts,js,json}');
    const touched = (uri: vscode.Uri) => void this.touched(uri);
    this.subscriptions.push(
      watcher,
      this.changed,
      watcher.onDidCreate(touched),
      watcher.onDidChange(touched),
      watcher.onDidDelete(touched),
      vscode.workspace.onDidSaveTextDocument((d) => touched(d.uri)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.reload()),
    );
  }

  ready(): Promise<void> {
    this.loaded ??= this.reload();
    return this.loaded;
  }

  async reload(): Promise<void> {
    const dirs = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').flatMap((f) => findPackageFolders(f.uri.fsPath));
    this.packages.clear();
    await Promise.all(dirs.map((dir) => this.readPackage(dir)));
    this.rebuild();
  }

  /** Reads a package's tests (one outside the workspace too, for the command) and shows them. */
  async include(dir: string): Promise<void> {
    await this.ready();
    await this.readPackage(dir);
    this.rebuild();
  }

  private async readPackage(dir: string): Promise<void> {
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(dir), SOURCES), '**/node_modules/**');
    const files = new Map<string, DiscoveredCategory[]>();
    await Promise.all(
      uris.map(async (uri) => {
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
        if (!text.includes('category(')) return;
        const categories = discoverTests(text);
        if (categories.length > 0) files.set(uri.fsPath, categories);
      }),
    );
    this.packages.set(dir, { dir, name: packageName(dir), files, changedAt: this.packages.get(dir)?.changedAt ?? 0 });
  }

  /** A file changed: its package (a new one too) is read again; dist/ and node_modules are not sources. */
  private async touched(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file' || /[\\/](node_modules|dist)[\\/]/.test(uri.fsPath)) return;
    await this.ready();
    const dir = packageFolderOf(uri.fsPath);
    if (!dir) return;
    await this.readPackage(dir);
    const entry = this.packages.get(dir);
    if (entry) entry.changedAt = Date.now();
    this.rebuild();
    this.changed.fire(dir);
  }

  /** Package → test file → category → test. */
  private rebuild(): void {
    const { controller } = this;
    this.refs.clear();
    const roots: vscode.TestItem[] = [];
    for (const entry of [...this.packages.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.files.size === 0) continue;
      const pkg = controller.createTestItem(`package:${entry.dir}`, entry.name, vscode.Uri.file(entry.dir));
      this.refs.set(pkg.id, { packageDir: entry.dir });
      let packageHasNode = false;
      for (const [file, categories] of [...entry.files].sort(([a], [b]) => a.localeCompare(b))) {
        const fileItem = controller.createTestItem(`file:${file}`, path.relative(entry.dir, file).split(path.sep).join('/'), vscode.Uri.file(file));
        this.refs.set(fileItem.id, { packageDir: entry.dir, file });
        let fileHasNode = false;
        for (const c of categories) {
          const cat = controller.createTestItem(`category:${file}|${c.name}`, c.name, vscode.Uri.file(file));
          cat.range = toRange(c.span);
          this.refs.set(cat.id, { packageDir: entry.dir, file, category: c.name });
          let categoryHasNode = false;
          for (const t of c.tests) {
            const item = this.testItem(entry.dir, file, c.name, t.name, toRange(t.span));
            if (t.dynamic) item.description = 'name known when it runs';
            if (t.options.skipReason) item.description = `skipped: ${t.options.skipReason}`;
            if (runsInNode(t, c)) {
              item.tags = [NODE_TAG];
              categoryHasNode = true;
            }
            cat.children.add(item);
          }
          if (categoryHasNode) cat.tags = [NODE_TAG];
          fileHasNode ||= categoryHasNode;
          fileItem.children.add(cat);
        }
        if (fileHasNode) fileItem.tags = [NODE_TAG];
        packageHasNode ||= fileHasNode;
        pkg.children.add(fileItem);
      }
      if (packageHasNode) pkg.tags = [NODE_TAG];
      roots.push(pkg);
    }
    controller.items.replace(roots);
  }

  /** A test's item (made for a name that only the run revealed, too). */
  testItem(packageDir: string, file: string, category: string, test: string, range?: vscode.Range): vscode.TestItem {
    const item = this.controller.createTestItem(`test:${file}|${category}|${test}`, test, vscode.Uri.file(file));
    item.range = range;
    this.refs.set(item.id, { packageDir, file, category, test });
    return item;
  }

  /** The package item of a folder. */
  packageItem(dir: string): vscode.TestItem | undefined {
    return this.controller.items.get(`package:${dir}`);
  }

  /** Every item under `item` (itself included). */
  static walk(item: vscode.TestItem, visit: (i: vscode.TestItem) => void): void {
    visit(item);
    item.children.forEach((c) => {
      PackageTestTree.walk(c, visit);
    });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
