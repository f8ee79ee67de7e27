// What the features register with VS Code, through one seam. The extension's entry (dist/extension.js)
// registers every contribution at activation with a stand-in that loads the features (dist/features.js) on
// first use; when they load, each feature attaches its real command handler, tree, provider or tool to the
// stand-in through these calls (src/start/standIns.ts). Nothing is registered twice with VS Code.
import type * as vscode from 'vscode';

export interface Contributions {
  /** A command's handler (the command layer's wrapper around it). */
  command(id: string, callback: (...args: unknown[]) => unknown): vscode.Disposable;
  /** The view, made at activation; its data provider and drag and drop are the ones given here. */
  treeView<T>(id: string, options: vscode.TreeViewOptions<T>): vscode.TreeView<T>;
  fileSystem(scheme: string, provider: vscode.FileSystemProvider, options: { readonly isCaseSensitive?: boolean; readonly isReadonly?: boolean }): vscode.Disposable;
  textContent(scheme: string, provider: vscode.TextDocumentContentProvider): vscode.Disposable;
  /** The parameter files' language features (their selector is fixed: JSON and JSON with comments). */
  codeLens(provider: vscode.CodeLensProvider): vscode.Disposable;
  completion(provider: vscode.CompletionItemProvider, ...triggerCharacters: string[]): vscode.Disposable;
  hover(provider: vscode.HoverProvider): vscode.Disposable;
  codeActions(provider: vscode.CodeActionProvider, metadata: vscode.CodeActionProviderMetadata): vscode.Disposable;
  /**
   * A Test Explorer controller, made at activation; the feature sets its handlers and run profiles: the
   * function tests' (default) or the package tests'.
   */
  testController(which?: 'functions' | 'packages'): vscode.TestController;
  /** A custom editor contributed in package.json (its stand-in is registered at activation, for restored editors). */
  customEditor(viewType: string, provider: vscode.CustomReadonlyEditorProvider): vscode.Disposable;
  /** The provider of the debug type package.json contributes (its stand-in is registered at activation). */
  debugConfigurations(provider: vscode.DebugConfigurationProvider): vscode.Disposable;
  /** The task provider of a task type contributed in package.json (its stand-in is registered at activation). */
  taskProvider(type: string, provider: vscode.TaskProvider): vscode.Disposable;
  /** A notebook type's serializer (package.json notebooks; its stand-in is registered at activation, for restored notebooks). */
  notebookSerializer(notebookType: string, serializer: vscode.NotebookSerializer): vscode.Disposable;
  /** A language-model tool contributed in package.json. */
  tool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable;
}
