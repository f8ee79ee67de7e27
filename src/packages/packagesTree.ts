// The Packages view: the Datagrok packages of the workspace (every folder of it, monorepos' packages
// included), each with its version and, when signed in, the version the active server has ("not
// published" when it has none); under each, its functions as written — name, role, inputs → outputs —
// each opening its annotation. The packages are read from disk (src/platform/packages/inventory.ts), so
// they show signed out too; the server's list is read once per session and its failure shows in place,
// with Retry, above the packages. Item context values: `datagrok.package`, `datagrok.packageFunction`.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { Connection } from '../connection/connection';
import { type LocalPackage, type PackageFunction, readPackage, signatureText } from '../platform/packages/inventory';
import { findPackageFolders } from '../platform/packages/recognition';
import { type ServerPackage, type ServerPackages, serverPackageOf, serverVersionOf, serverVersionText } from '../platform/packages/serverPackages';
import { ErrorNode, type ExplorerContext, ExplorerNode, ExplorerTree, MessageNode } from '../ui/explorerTree';

export const PACKAGES_VIEW = 'datagrok.packages';
const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;
const KIND_ICONS: Record<PackageFunction['kind'], string> = { function: 'symbol-function', script: 'file-code', query: 'database' };

/** What the view knows of the server's packages now. */
type ServerState = { state: 'signedOut' } | { state: 'loading' } | { state: 'loaded'; list: ServerPackage[] } | { state: 'failed'; error: unknown };

export class PackageNode extends ExplorerNode {
  constructor(
    private readonly tree: PackagesTree,
    readonly pkg: LocalPackage,
    /** What the server has of it: a text for the view, undefined when signed out. */
    readonly server: string | undefined,
    private readonly expanded: boolean,
  ) {
    super(`pkg:${pkg.folder}`, undefined);
  }

  treeItem(): vscode.TreeItem {
    const { pkg } = this;
    const item = this.item(pkg.friendlyName ?? pkg.name, this.expanded ? Expanded : Collapsed);
    item.iconPath = new vscode.ThemeIcon('package');
    item.description = [pkg.version ? `v${pkg.version}` : 'no version', this.server].filter(Boolean).join(' · ');
    item.resourceUri = vscode.Uri.file(pkg.folder);
    const count = `${pkg.functions.length} function${pkg.functions.length === 1 ? '' : 's'}`;
    item.tooltip = `${pkg.name}${pkg.version ? ` ${pkg.version}` : ''} (${vscode.workspace.asRelativePath(pkg.folder, true)}): ${count}${this.server ? `; ${this.server}` : ''}`;
    item.contextValue = 'datagrok.package';
    return item;
  }

  override async children(ctx: ExplorerContext): Promise<ExplorerNode[]> {
    if (this.pkg.functions.length === 0) return [new MessageNode(this, 'No annotated functions (//name: above an exported function)', 'info')];
    return this.tree.paged(this, ctx, this.pkg.functions, (f) => new PackageFunctionNode(this, f));
  }
}

export class PackageFunctionNode extends ExplorerNode {
  constructor(
    parent: PackageNode,
    readonly func: PackageFunction,
  ) {
    super(`${parent.id}/fn:${func.file}:${func.line}:${func.name}`, parent);
  }

  /** Where its annotation is: the package's file, on the `name:` line. */
  get location(): vscode.Location {
    const pkg = (this.parent as PackageNode).pkg;
    return new vscode.Location(vscode.Uri.file(path.join(pkg.folder, ...this.func.file.split('/'))), new vscode.Position(this.func.line, 0));
  }

  treeItem(): vscode.TreeItem {
    const { func } = this;
    const item = this.item(func.name, None);
    item.iconPath = new vscode.ThemeIcon(KIND_ICONS[func.kind]);
    item.description = [func.roles.join(', '), signatureText(func)].filter(Boolean).join(' · ');
    const tooltip = new vscode.MarkdownString();
    tooltip.appendCodeblock(`${func.name}${signatureText(func)}`, 'text');
    if (func.roles.length > 0) tooltip.appendMarkdown(`\n\nRole: ${func.roles.join(', ')}`);
    if (func.description) tooltip.appendText(`\n\n${func.description}`);
    tooltip.appendText(`\n\n${func.kind} · ${func.file}:${func.line + 1}`);
    item.tooltip = tooltip;
    const { uri, range } = this.location;
    item.command = { title: 'Open Annotation', command: 'vscode.open', arguments: [uri, { selection: range, preview: true }] };
    item.contextValue = 'datagrok.packageFunction';
    item.accessibilityInformation = { label: `${func.kind} ${func.name} ${signatureText(func)}` };
    return item;
  }
}

export class PackagesTree extends ExplorerTree {
  private server: ServerState = { state: 'signedOut' };
  /** The package folders found in the workspace, and each one's reading (until its files change). */
  private folders: string[] | undefined;
  private readonly read = new Map<string, LocalPackage>();
  /** Bumped by every reload, so a late answer of an earlier one is dropped. */
  private generation = 0;

  constructor(
    private readonly packages: ServerPackages,
    private readonly connection: Connection,
    log: vscode.LogOutputChannel,
  ) {
    super({
      view: PACKAGES_VIEW,
      roots: (ctx) => this.roots(ctx),
      // The packages are the workspace's: they show signed out too (without the server's versions).
      signedIn: () => true,
      baseUrl: () => connection.baseUrl(),
      log,
    });
  }

  /** The workspace's packages (every file: folder of it): each read from disk once, until its files change. */
  localPackages(): LocalPackage[] {
    if (!this.folders) {
      const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
      this.folders = [...new Set(roots.flatMap((root) => findPackageFolders(root)))];
    }
    return this.folders
      .map((folder) => {
        const known = this.read.get(folder);
        if (known) return known;
        const pkg = readPackage(folder);
        this.read.set(folder, pkg);
        return pkg;
      })
      .sort((a, b) => (a.friendlyName ?? a.name).localeCompare(b.friendlyName ?? b.name) || a.folder.localeCompare(b.folder));
  }

  /**
   * Files changed on disk: the packages holding them are read again; a package.json or package entry file
   * (a package made or removed) also makes the workspace be searched again for packages.
   */
  filesChanged(files: readonly string[]): void {
    for (const file of files) {
      if (['package.json', 'package.ts', 'package.js'].includes(path.basename(file))) {
        this.folders = undefined;
        const dir = path.dirname(file);
        for (const folder of [...this.read.keys()]) if (folder === dir || folder.startsWith(dir + path.sep)) this.read.delete(folder);
      }
      const holder = (this.folders ?? [...this.read.keys()]).filter((f) => file.startsWith(f + path.sep)).sort((a, b) => b.length - a.length)[0];
      if (holder) this.read.delete(holder);
    }
    this.refresh();
  }

  /** Whether `dir` is, or holds, a package the view lists. */
  holdsPackages(dir: string): boolean {
    return (this.folders ?? []).some((f) => f === dir || f.startsWith(dir + path.sep));
  }

  /** Reads the workspace's packages again; with `server`, the server's list too (sign-in, Refresh). */
  reload(server: boolean): void {
    this.folders = undefined;
    this.read.clear();
    if (server) {
      this.generation++;
      this.packages.reload();
      this.server = { state: 'signedOut' };
    }
    this.refresh();
  }

  /** Retry of the server's list (its error item). */
  override retry(_node: ExplorerNode | undefined): void {
    this.reload(true);
  }

  private serverState(): ServerState {
    if (!this.connection.isSignedIn) return { state: 'signedOut' };
    if (this.server.state === 'signedOut') {
      const generation = this.generation;
      this.server = { state: 'loading' };
      this.packages.list().then(
        (list) => this.settle(generation, { state: 'loaded', list }),
        (error: unknown) => this.settle(generation, { state: 'failed', error }),
      );
    }
    return this.server;
  }

  private settle(generation: number, state: ServerState): void {
    if (generation !== this.generation) return;
    this.server = state;
    this.refresh();
  }

  private async roots(ctx: ExplorerContext): Promise<ExplorerNode[]> {
    const local = this.localPackages();
    if (local.length === 0) return [];
    const server = this.serverState();
    const text = (pkg: LocalPackage): string | undefined => {
      if (server.state === 'signedOut') return undefined;
      if (server.state === 'loading') return `checking ${ctx.host}…`;
      if (server.state === 'failed') return `${ctx.host}: version unknown`;
      return serverVersionText(serverVersionOf(serverPackageOf(server.list, pkg)));
    };
    const nodes: ExplorerNode[] = local.map((pkg) => new PackageNode(this, pkg, text(pkg), local.length === 1));
    if (server.state === 'failed') {
      const error = server.error;
      // A missing or rejected key keeps its kind: the item then offers Sign In rather than Retry.
      const shown = isDatagrokError(error, 'unauthorized')
        ? error
        : new Error(`Could not read the packages of ${ctx.host}, so their versions there are unknown: ${error instanceof Error ? error.message : String(error)}`);
      nodes.unshift(new ErrorNode(undefined, shown, ctx.host, `${PACKAGES_VIEW}.refresh`));
    }
    return nodes;
  }
}
