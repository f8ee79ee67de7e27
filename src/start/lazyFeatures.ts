// A light start: at activation the entry registers every contribution of the features with a stand-in
// (src/start/standIns.ts): the commands and tools package.json contributes, the views, the datagrok: and
// datagrok-result: file systems, the datagrok-schema: documents, the parameter files' language features.
// The features (dist/features.js) load on first use, synchronously, and attach their real handlers
// through `Contributions`; from then on the stand-ins forward. A failed load is shown once and rejects
// every call with the same message.
import * as vscode from 'vscode';
import type { Contributions } from '../core/contributions';
import { mayBeParameterFile } from '../core/parameterFileNames';
import type { Features, Shell } from '../features';
import { loadOnce } from '../platform/lazyModules';
import { DebugConfigurationStandIn, testControllerStandIn } from './providerStandIns';
import { requireFeatures } from './loadFeatures';
import { CustomEditorStandIn, DragAndDropStandIn, FileSystemStandIn, Forward, type Load, ParameterFileStandIn, TaskProviderStandIn } from './standIns';
import { same, TextContentStandIn, toolStandIn, TreeStandIn, viewMatchesPlan } from './standIns';
import { NotebookStandIns } from './notebookStandIns';
import {
  CODE_ACTION_KINDS,
  COMPLETION_TRIGGERS,
  CUSTOM_EDITORS,
  FILE_SYSTEMS,
  LOAD_WHEN_WORKSPACE_CONTAINS,
  PARAMETER_FILES,
  PACKAGE_TEST_CONTROLLER,
  TASK_TYPES,
  TEST_CONTROLLER,
  TEXT_CONTENT,
  VIEWS,
} from './planned';

interface Manifest {
  contributes: { commands: { command: string }[]; languageModelTools: { name: string }[] };
}

/** Lets the extension host's event loop run what is waiting (setImmediate: after I/O, no timer's delay). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class LazyFeatures implements Contributions {
  private readonly part: { get(): Features; readonly loaded: boolean };
  private readonly handlers = new Map<string, (...args: unknown[]) => unknown>();
  private readonly contributedCommands = new Set<string>();
  private readonly views = new Map<string, { tree: TreeStandIn<unknown>; dnd?: DragAndDropStandIn<unknown>; make(): vscode.TreeView<unknown>; view?: vscode.TreeView<unknown> }>();
  private readonly fileSystems = new Map<string, FileSystemStandIn>();
  private readonly textContents = new Map<string, TextContentStandIn>();
  private readonly tools = new Map<string, Forward<vscode.LanguageModelTool<unknown>>>();
  private readonly customEditors = new Map<string, CustomEditorStandIn>();
  private readonly taskProviders = new Map<string, TaskProviderStandIn>();
  private readonly notebooks: NotebookStandIns;
  private readonly parameterFiles: ParameterFileStandIn;
  private readonly debug = new DebugConfigurationStandIn(() => this.load(), 'the datagrok debug configurations');
  private readonly tests = new Map<'functions' | 'packages', vscode.TestController>();
  /** Ids the features registered that had no stand-in (registered directly when they loaded). */
  readonly unplanned: string[] = [];
  /** The parts `register()` registered so far, in order, with the time each took (milliseconds). */
  readonly parts: { name: string; ms: number }[] = [];
  private readonly load: Load;

  constructor(
    private readonly shell: Omit<Shell, 'contributions'>,
    start: (shell: Shell) => Features = (s) => requireFeatures().startFeatures(s),
  ) {
    const { context, log } = shell;
    this.part = loadOnce(
      "the extension's features (dist/features.js)",
      () => {
        const started = performance.now();
        const features = start({ ...shell, contributions: this });
        log.info(`Features loaded in ${(performance.now() - started).toFixed(1)} ms`);
        return features;
      },
      (error) => {
        log.error(error.message);
        void vscode.window.showErrorMessage(`Datagrok: ${error.message}`);
      },
    );
    this.load = () => void this.part.get();
    const manifest = context.extension.packageJSON as Manifest;
    // What the features attach to exists from the start: they may load (a view asking for its items)
    // while later parts are still to be registered.
    for (const { command } of manifest.contributes.commands) this.contributedCommands.add(command);
    for (const { name } of manifest.contributes.languageModelTools) this.tools.set(name, new Forward<vscode.LanguageModelTool<unknown>>(this.load, `the ${name} tool`));
    for (const scheme of Object.keys(FILE_SYSTEMS)) this.fileSystems.set(scheme, new FileSystemStandIn(this.load, `the ${scheme}: file system`));
    for (const scheme of TEXT_CONTENT) this.textContents.set(scheme, new TextContentStandIn(this.load, `the ${scheme}: documents`));
    for (const viewType of Object.keys(CUSTOM_EDITORS)) this.customEditors.set(viewType, new CustomEditorStandIn(this.load, `the ${viewType} editor`));
    for (const [type, glob] of Object.entries(TASK_TYPES)) this.taskProviders.set(type, new TaskProviderStandIn(this.load, `the ${type} tasks`, glob));
    this.notebooks = new NotebookStandIns(this.load);
    this.parameterFiles = new ParameterFileStandIn(
      this.load,
      (document) => this.part.loaded || mayBeParameterFile(document.languageId, document.uri.path, () => document.getText()),
    );
    for (const id of Object.keys(VIEWS)) this.makeView(id);
  }

  /**
   * Registers every stand-in with VS Code, in parts, each in a turn of the extension host's event loop
   * of its own: first what the activation causes wait for (the views' data, the file systems), then the
   * commands, the parameter files' language features, the tools. VS Code waits for the returned promise
   * before it counts the extension active, so a view, a restored editor or a command run finds its
   * provider; between the parts the host answers others (a view asking for its first items). Each part's
   * duration is kept in `parts`.
   */
  async register(): Promise<void> {
    const subscriptions = this.shell.context.subscriptions;
    const parts: [string, () => vscode.Disposable[]][] = [
      [
        'views and file systems',
        () => [...[...this.views.keys()].map((id) => this.viewOf(id)), ...this.registerFileSystems(), this.testController(), this.testController('packages')],
      ],
      ['commands', () => [...this.contributedCommands].map((command) => vscode.commands.registerCommand(command, (...args: unknown[]) => this.run(command, args)))],
      ['parameter files', () => this.registerParameterFiles()],
      ['tools', () => [...this.tools].map(([name, tool]) => vscode.lm.registerTool(name, toolStandIn(tool)))],
      ['debug configurations', () => [this.debug.register()]],
    ];
    for (const [name, register] of parts) {
      await nextTurn();
      const started = performance.now();
      subscriptions.push(...register());
      this.parts.push({ name, ms: performance.now() - started });
    }
    // After activation, not during it (a file search; VS Code does not wait for it); again for a folder added.
    setTimeout(() => void this.loadIfWorkspaceContains(), 0);
    subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.loadIfWorkspaceContains()));
  }

  private async loadIfWorkspaceContains(): Promise<void> {
    if (this.part.loaded) return;
    const found = await vscode.workspace.findFiles(LOAD_WHEN_WORKSPACE_CONTAINS, '**/node_modules/**', 1).then(undefined, () => []);
    if (found.length > 0 && !this.part.loaded) this.load();
  }

  private makeView(id: string): void {
    const o = VIEWS[id];
    const tree = new TreeStandIn<unknown>(this.load, `the ${id} view`, o.resolves === true);
    const dnd = o.dnd && new DragAndDropStandIn<unknown>(this.load, `the ${id} view's drag and drop`, o.dnd.drag, o.dnd.drop);
    this.views.set(id, {
      tree,
      dnd,
      make: () => vscode.window.createTreeView(id, { treeDataProvider: tree, showCollapseAll: o.showCollapseAll, canSelectMany: o.canSelectMany, dragAndDropController: dnd }),
    });
  }

  /** The view, made with its stand-in the first time it is asked for (when registered, or by a feature). */
  private viewOf(id: string): vscode.TreeView<unknown> {
    const made = this.views.get(id);
    if (!made) throw new Error(`Datagrok: no view ${id} is made at activation.`);
    made.view ??= made.make();
    return made.view;
  }

  private registerFileSystems(): vscode.Disposable[] {
    return [
      ...[...this.fileSystems].map(([scheme, standIn]) => vscode.workspace.registerFileSystemProvider(scheme, standIn, FILE_SYSTEMS[scheme])),
      ...[...this.textContents].map(([scheme, standIn]) => vscode.workspace.registerTextDocumentContentProvider(scheme, standIn)),
      ...[...this.customEditors].map(([viewType, standIn]) => vscode.window.registerCustomEditorProvider(viewType, standIn, { webviewOptions: CUSTOM_EDITORS[viewType] })),
      ...[...this.taskProviders].map(([type, standIn]) => vscode.tasks.registerTaskProvider(type, standIn)),
      ...this.notebooks.register(),
    ];
  }

  private registerParameterFiles(): vscode.Disposable[] {
    const p = this.parameterFiles;
    return [
      vscode.languages.registerCodeLensProvider(PARAMETER_FILES, p.lensProvider()),
      vscode.languages.registerCompletionItemProvider(PARAMETER_FILES, p.completionProvider(), ...COMPLETION_TRIGGERS),
      vscode.languages.registerHoverProvider(PARAMETER_FILES, p.hoverProvider()),
      vscode.languages.registerCodeActionsProvider(PARAMETER_FILES, p.actionsProvider(), { providedCodeActionKinds: CODE_ACTION_KINDS }),
    ];
  }

  /** The Test Explorer's controller, made the first time it is asked for (a stand-in resolves it until the features load). */
  testController(which: 'functions' | 'packages' = 'functions'): vscode.TestController {
    const made = this.tests.get(which) ?? testControllerStandIn(which === 'functions' ? TEST_CONTROLLER : PACKAGE_TEST_CONTROLLER, this.load);
    this.tests.set(which, made);
    return made;
  }

  /** The features, loaded now if nothing has loaded them yet. */
  features(): Features {
    return this.part.get();
  }

  get loaded(): boolean {
    return this.part.loaded;
  }

  private run(id: string, args: unknown[]): unknown {
    this.part.get();
    const handler = this.handlers.get(id);
    if (!handler) throw new Error(`Datagrok: the command ${id} is contributed but its feature did not register it.`);
    return handler(...args);
  }

  command(id: string, callback: (...args: unknown[]) => unknown): vscode.Disposable {
    if (!this.contributedCommands.has(id)) {
      this.unplanned.push(id);
      return vscode.commands.registerCommand(id, callback);
    }
    this.handlers.set(id, callback);
    return new vscode.Disposable(() => this.handlers.delete(id));
  }

  treeView<T>(id: string, options: vscode.TreeViewOptions<T>): vscode.TreeView<T> {
    const made = this.views.get(id);
    const planned = VIEWS[id];
    if (!made || !planned) {
      this.unplanned.push(id);
      return vscode.window.createTreeView(id, options);
    }
    const dnd = options.dragAndDropController;
    // A developer's mistake, caught by every test that opens the view: the view was made otherwise.
    if (!viewMatchesPlan(options, planned))
      throw new Error(`Datagrok: the ${id} view is made at activation (src/start/planned.ts, VIEWS) with other options than its feature asks for.`);
    const relayed = made.tree.attach(options.treeDataProvider as vscode.TreeDataProvider<unknown>);
    if (made.dnd && dnd) made.dnd.target = dnd as vscode.TreeDragAndDropController<unknown>;
    this.shell.context.subscriptions.push(relayed);
    return this.viewOf(id) as vscode.TreeView<T>;
  }

  fileSystem(scheme: string, provider: vscode.FileSystemProvider, options: { readonly isCaseSensitive?: boolean; readonly isReadonly?: boolean }): vscode.Disposable {
    const standIn = this.fileSystems.get(scheme);
    if (!standIn) {
      this.unplanned.push(scheme);
      return vscode.workspace.registerFileSystemProvider(scheme, provider, options);
    }
    if (JSON.stringify(options) !== JSON.stringify(FILE_SYSTEMS[scheme]))
      throw new Error(`Datagrok: the ${scheme}: file system is registered at activation with other options than its feature asks for.`);
    return standIn.attach(provider);
  }

  textContent(scheme: string, provider: vscode.TextDocumentContentProvider): vscode.Disposable {
    const standIn = this.textContents.get(scheme);
    if (!standIn) {
      this.unplanned.push(scheme);
      return vscode.workspace.registerTextDocumentContentProvider(scheme, provider);
    }
    return standIn.attach(provider);
  }

  codeLens(provider: vscode.CodeLensProvider): vscode.Disposable {
    return this.parameterFiles.attachLens(provider);
  }

  completion(provider: vscode.CompletionItemProvider, ...triggerCharacters: string[]): vscode.Disposable {
    if (!same(triggerCharacters, COMPLETION_TRIGGERS)) throw new Error('Datagrok: parameter file completion is registered at activation with other trigger characters.');
    this.parameterFiles.completion.target = provider;
    return new vscode.Disposable(() => undefined);
  }

  hover(provider: vscode.HoverProvider): vscode.Disposable {
    this.parameterFiles.hover.target = provider;
    return new vscode.Disposable(() => undefined);
  }

  codeActions(provider: vscode.CodeActionProvider, metadata: vscode.CodeActionProviderMetadata): vscode.Disposable {
    const kinds = (list: readonly vscode.CodeActionKind[] | undefined) => list?.map((k) => k.value);
    if (!same(kinds(metadata.providedCodeActionKinds), kinds(CODE_ACTION_KINDS)))
      throw new Error('Datagrok: parameter file quick fixes are registered at activation with other kinds.');
    this.parameterFiles.actions.target = provider;
    return new vscode.Disposable(() => undefined);
  }

  customEditor(viewType: string, provider: vscode.CustomReadonlyEditorProvider): vscode.Disposable {
    const direct = () => vscode.window.registerCustomEditorProvider(viewType, provider, { webviewOptions: { retainContextWhenHidden: true } });
    return this.attach(this.customEditors.get(viewType), provider, viewType, direct);
  }

  taskProvider(type: string, provider: vscode.TaskProvider): vscode.Disposable {
    return this.attach(this.taskProviders.get(type), provider, type, () => vscode.tasks.registerTaskProvider(type, provider));
  }

  debugConfigurations(provider: vscode.DebugConfigurationProvider): vscode.Disposable {
    this.debug.target = provider;
    return new vscode.Disposable(() => undefined);
  }

  notebookSerializer(notebookType: string, serializer: vscode.NotebookSerializer): vscode.Disposable {
    return this.notebooks.attach(notebookType, serializer);
  }

  tool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable {
    return this.attach(this.tools.get(name), tool as vscode.LanguageModelTool<unknown>, name, () => vscode.lm.registerTool(name, tool));
  }

  /** Attaches the real provider to its stand-in; one that was not planned is registered directly (and noted). */
  private attach<T>(standIn: Forward<T> | undefined, target: T, id: string, direct: () => vscode.Disposable): vscode.Disposable {
    if (!standIn) {
      this.unplanned.push(id);
      return direct();
    }
    standIn.target = target;
    return new vscode.Disposable(() => undefined);
  }
}
