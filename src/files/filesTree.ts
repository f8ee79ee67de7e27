// The Files view's tree: the file-share connections of the active server as roots, their folders and
// files listed through the `datagrok` file system's readDirectory (one place for the listing route and
// its fallbacks). Items carry the datagrok: URI as resourceUri (VS Code's file icons); a file opens on
// click. The tree itself (paging, errors with Retry, signed-out state) is the shared ExplorerTree.
import * as vscode from 'vscode';
import type { ConnectionInfo } from '../api/types';
import type { Services } from '../services';
import { type ExplorerContext, ExplorerNode, ExplorerTree } from '../ui/explorerTree';
import type { ConnectorFileSystem } from './connectorFileSystem';
import { baseName, displayPath } from './connectorPaths';
import { connectorUri, parseUri } from './uris';

export const FILES_VIEW = 'datagrok.files';
const { Collapsed, None } = vscode.TreeItemCollapsibleState;
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** What the nodes build their children from. */
interface FilesSource {
  readonly fs: ConnectorFileSystem;
  readonly tree: () => ExplorerTree;
  /** Remembers a listed folder by its URI, so a change made through the file system reloads only it. */
  remember(node: FolderNode): void;
}

/** A file, a folder or a file-share connection: every node of this tree that names a server path. */
export abstract class FilesNode extends ExplorerNode {
  constructor(
    id: string,
    parent: ExplorerNode | undefined,
    /** The datagrok: URI of the file or folder ('' path for a connection). */
    readonly uri: vscode.Uri,
  ) {
    super(id, parent);
  }

  /** The connector path shown to users, e.g. System:DemoFiles/geo/cities.csv */
  get datagrokPath(): string {
    return displayPath(parseUri(this.uri));
  }
}

/** A folder (or a connection's root): lists its entries, folders first. */
export class FolderNode extends FilesNode {
  constructor(
    id: string,
    parent: ExplorerNode | undefined,
    uri: vscode.Uri,
    protected readonly source: FilesSource,
  ) {
    super(id, parent, uri);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(baseName(parseUri(this.uri).path), Collapsed);
    item.resourceUri = this.uri;
    item.iconPath = vscode.ThemeIcon.Folder;
    item.tooltip = this.datagrokPath;
    item.contextValue = 'datagrok.folder';
    return item;
  }

  override async children(ctx: ExplorerContext): Promise<ExplorerNode[]> {
    this.source.remember(this);
    const entries = await this.source.fs.readDirectory(this.uri);
    entries.sort(([a, ta], [b, tb]) => Number(tb === vscode.FileType.Directory) - Number(ta === vscode.FileType.Directory) || collator.compare(a, b));
    return this.source.tree().paged(this, ctx, entries, ([name, type]) => {
      const uri = vscode.Uri.joinPath(this.uri, name);
      const id = `${this.id}/=${name}`; // never the error, message or more item's id
      return type === vscode.FileType.Directory ? new FolderNode(id, this, uri, this.source) : new FileNode(id, this, uri);
    });
  }
}

/** A file-share connection: the root of its files. */
export class ShareNode extends FolderNode {
  constructor(
    readonly connection: ConnectionInfo,
    uri: vscode.Uri,
    source: FilesSource,
  ) {
    super(`share:${connection.nqName}`, undefined, uri, source);
  }

  override treeItem(): vscode.TreeItem {
    const item = this.item(this.connection.nqName, Collapsed);
    item.resourceUri = this.uri;
    item.iconPath = new vscode.ThemeIcon('database');
    item.description = this.connection.description || undefined;
    item.tooltip = [this.connection.nqName, this.connection.description].filter(Boolean).join('\n');
    item.contextValue = 'datagrok.fileShare';
    return item;
  }
}

export class FileNode extends FilesNode {
  treeItem(): vscode.TreeItem {
    const item = this.item(baseName(parseUri(this.uri).path), None);
    item.resourceUri = this.uri; // VS Code picks the file icon from the name
    item.tooltip = this.datagrokPath;
    item.contextValue = 'datagrok.file';
    item.command = { title: 'Open', command: 'vscode.open', arguments: [this.uri] };
    return item;
  }
}

/** The Files view's data: the tree, and the folders listed so far (for targeted reloads). */
export class FilesTree {
  readonly tree: ExplorerTree;
  private readonly folders = new Map<string, FolderNode>();

  constructor(services: Services, fs: ConnectorFileSystem) {
    const { connection, log } = services;
    const source: FilesSource = { fs, tree: () => this.tree, remember: (node) => this.folders.set(node.uri.toString(), node) };
    this.tree = new ExplorerTree({
      view: FILES_VIEW,
      log,
      signedIn: () => connection.isSignedIn,
      baseUrl: () => connection.baseUrl(),
      roots: async () => {
        this.folders.clear();
        const shares = await services.platform.catalog.fileShares();
        const baseUrl = connection.baseUrl();
        return shares.map((share) => new ShareNode(share, connectorUri(baseUrl, share.nqName, ''), source));
      },
    });
  }

  /** After a change at `uri`: its folder is listed again (the whole tree when that folder was not shown). */
  changed(uri: vscode.Uri): void {
    const folder = this.folders.get(vscode.Uri.joinPath(uri, '..').toString());
    if (folder) this.tree.retry(folder);
    else this.tree.refresh();
  }
}

/** The datagrok: URI a command was given: a Uri of that scheme, or an item of the Files view. */
export function itemUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof FilesNode) return arg.uri;
  return arg instanceof vscode.Uri && arg.scheme === 'datagrok' ? arg : undefined;
}

/** Whether a command's item is a folder or connection (where new files and uploads go). */
export function isFolderItem(arg: unknown): arg is FolderNode {
  return arg instanceof FolderNode;
}
