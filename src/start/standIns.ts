// Stand-ins registered with VS Code at activation in place of the features' own trees, file systems,
// providers and tools: each holds a `target` the features attach when they load (src/start/lazyFeatures.ts),
// loads them on its first real call, then forwards every call and event to the target unchanged.
import * as vscode from 'vscode';
import type { VIEWS } from './planned';

/** Loads the features (at most once; throws a clear error if they cannot load). */
export type Load = () => void;

/** One stand-in: the target once attached, loaded on demand. */
class Forward<T> {
  target: T | undefined;
  constructor(
    private readonly load: Load,
    readonly what: string,
  ) {}

  real(): T {
    if (this.target === undefined) this.load();
    if (this.target === undefined) throw new Error(`Datagrok: ${this.what} was not set up by the features that were loaded for it.`);
    return this.target;
  }
}

/** Forwards a target's event through an event made at activation (VS Code subscribes to it then). */
function relay<E>(emitter: vscode.EventEmitter<E>, event: vscode.Event<E> | undefined): vscode.Disposable {
  return event ? event((e) => emitter.fire(e)) : new vscode.Disposable(() => undefined);
}

export class TreeStandIn<T> extends Forward<vscode.TreeDataProvider<T>> implements vscode.TreeDataProvider<T> {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null>();
  readonly onDidChangeTreeData = this.changed.event;
  declare resolveTreeItem?: (item: vscode.TreeItem, element: T, token: vscode.CancellationToken) => vscode.ProviderResult<vscode.TreeItem>;

  constructor(load: Load, what: string, resolves: boolean) {
    super(load, what);
    // VS Code asks resolveTreeItem (tooltips read later) only of providers that have it.
    if (resolves) this.resolveTreeItem = (item, element, token) => this.real().resolveTreeItem?.(item, element, token) ?? item;
  }

  attach(target: vscode.TreeDataProvider<T>): vscode.Disposable {
    this.target = target;
    return relay(this.changed, target.onDidChangeTreeData as vscode.Event<T | T[] | undefined | null> | undefined);
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.real().getTreeItem(element);
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.real().getChildren(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.real().getParent?.(element);
  }
}

export class DragAndDropStandIn<T> extends Forward<vscode.TreeDragAndDropController<T>> implements vscode.TreeDragAndDropController<T> {
  constructor(
    load: Load,
    what: string,
    readonly dragMimeTypes: readonly string[],
    readonly dropMimeTypes: readonly string[],
  ) {
    super(load, what);
  }

  handleDrag(source: readonly T[], dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): void | Thenable<void> {
    return this.real().handleDrag?.(source, dataTransfer, token);
  }

  handleDrop(target: T | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): void | Thenable<void> {
    return this.real().handleDrop?.(target, dataTransfer, token);
  }
}

export class FileSystemStandIn extends Forward<vscode.FileSystemProvider> implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  attach(target: vscode.FileSystemProvider): vscode.Disposable {
    this.target = target;
    return relay(this.changed, target.onDidChangeFile);
  }

  watch(uri: vscode.Uri, options: { readonly recursive: boolean; readonly excludes: readonly string[] }): vscode.Disposable {
    return this.real().watch(uri, options);
  }
  stat(uri: vscode.Uri): vscode.FileStat | Thenable<vscode.FileStat> {
    return this.real().stat(uri);
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] | Thenable<[string, vscode.FileType][]> {
    return this.real().readDirectory(uri);
  }
  createDirectory(uri: vscode.Uri): void | Thenable<void> {
    return this.real().createDirectory(uri);
  }
  readFile(uri: vscode.Uri): Uint8Array | Thenable<Uint8Array> {
    return this.real().readFile(uri);
  }
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): void | Thenable<void> {
    return this.real().writeFile(uri, content, options);
  }
  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void | Thenable<void> {
    return this.real().delete(uri, options);
  }
  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): void | Thenable<void> {
    return this.real().rename(oldUri, newUri, options);
  }
}

export class TextContentStandIn extends Forward<vscode.TextDocumentContentProvider> implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  attach(target: vscode.TextDocumentContentProvider): vscode.Disposable {
    this.target = target;
    return relay(this.changed, target.onDidChange);
  }

  provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): vscode.ProviderResult<string> {
    return this.real().provideTextDocumentContent(uri, token);
  }
}

/**
 * The parameter files' language features: a document that cannot be a parameter file gets what the
 * features would give it (nothing) without loading them; once loaded, every call goes to them.
 */
export class ParameterFileStandIn {
  readonly lens: Forward<vscode.CodeLensProvider>;
  readonly completion: Forward<vscode.CompletionItemProvider>;
  readonly hover: Forward<vscode.HoverProvider>;
  readonly actions: Forward<vscode.CodeActionProvider>;
  private readonly lensesChanged = new vscode.EventEmitter<void>();

  constructor(
    load: Load,
    /** False when the features are not loaded and the document cannot be a parameter file. */
    private readonly worthLoading: (document: vscode.TextDocument) => boolean,
  ) {
    this.lens = new Forward(load, "the parameter files' CodeLens");
    this.completion = new Forward(load, "the parameter files' completion");
    this.hover = new Forward(load, "the parameter files' hover");
    this.actions = new Forward(load, "the parameter files' quick fixes");
  }

  attachLens(target: vscode.CodeLensProvider): vscode.Disposable {
    this.lens.target = target;
    return relay(this.lensesChanged, target.onDidChangeCodeLenses);
  }

  lensProvider(): vscode.CodeLensProvider {
    return {
      onDidChangeCodeLenses: this.lensesChanged.event,
      provideCodeLenses: (document, token) => (this.worthLoading(document) ? this.lens.real().provideCodeLenses(document, token) : []),
    };
  }

  completionProvider(): vscode.CompletionItemProvider {
    return {
      provideCompletionItems: (document, position, token, context) =>
        this.worthLoading(document) ? this.completion.real().provideCompletionItems(document, position, token, context) : [],
    };
  }

  hoverProvider(): vscode.HoverProvider {
    return { provideHover: (document, position, token) => (this.worthLoading(document) ? this.hover.real().provideHover(document, position, token) : undefined) };
  }

  actionsProvider(): vscode.CodeActionProvider {
    return {
      provideCodeActions: (document, range, context, token) => (this.worthLoading(document) ? this.actions.real().provideCodeActions(document, range, context, token) : []),
    };
  }
}

/** A language-model tool: its name and description are in package.json; the call goes to the features. */
export function toolStandIn(tool: Forward<vscode.LanguageModelTool<unknown>>): vscode.LanguageModelTool<unknown> {
  return {
    invoke: (options, token) => tool.real().invoke(options, token),
    prepareInvocation: (options, token) => tool.real().prepareInvocation?.(options, token),
  };
}

export { Forward };

/** A custom editor's provider until the features attach the real one: opening an editor loads them. */
export class CustomEditorStandIn extends Forward<vscode.CustomReadonlyEditorProvider> implements vscode.CustomReadonlyEditorProvider {
  openCustomDocument(uri: vscode.Uri, context: vscode.CustomDocumentOpenContext, token: vscode.CancellationToken): vscode.CustomDocument | Thenable<vscode.CustomDocument> {
    return this.real().openCustomDocument(uri, context, token);
  }

  resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel, token: vscode.CancellationToken): void | Thenable<void> {
    return this.real().resolveCustomEditor(document, panel, token);
  }
}

/** A task provider's stand-in: it loads the features only when the workspace has a file its tasks need. */
export class TaskProviderStandIn extends Forward<vscode.TaskProvider> implements vscode.TaskProvider {
  constructor(
    load: Load,
    what: string,
    private readonly needs: string,
  ) {
    super(load, what);
  }

  async provideTasks(token: vscode.CancellationToken): Promise<vscode.Task[]> {
    if (this.target === undefined) {
      const found = await vscode.workspace.findFiles(this.needs, '**/node_modules/**', 1, token).then(undefined, () => []);
      if (found.length === 0) return [];
    }
    return (await this.real().provideTasks(token)) ?? [];
  }

  resolveTask(task: vscode.Task, token: vscode.CancellationToken): vscode.ProviderResult<vscode.Task> {
    return this.real().resolveTask(task, token);
  }
}

export function same(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

/** Whether a feature asks for a view with the options it was made with at activation (src/start/planned.ts, VIEWS). */
export function viewMatchesPlan(options: vscode.TreeViewOptions<unknown>, planned: (typeof VIEWS)[string]): boolean {
  const dnd = options.dragAndDropController;
  return (
    !!options.showCollapseAll === !!planned.showCollapseAll &&
    !!options.canSelectMany === !!planned.canSelectMany &&
    !!options.treeDataProvider.resolveTreeItem === !!planned.resolves &&
    !!dnd === !!planned.dnd &&
    (!dnd || (same(dnd.dragMimeTypes, planned.dnd?.drag) && same(dnd.dropMimeTypes, planned.dnd?.drop)))
  );
}
