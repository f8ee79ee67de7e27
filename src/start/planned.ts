// What activation registers before any feature loads (src/start/lazyFeatures.ts), and how: each feature
// must ask for the same when it attaches (checked then), so a view, a restored editor or a command finds
// its provider from the start.
import * as vscode from 'vscode';

/** How each view is made at activation; its feature must ask for the same (checked when it attaches). */
export const VIEWS: Record<string, { showCollapseAll?: boolean; canSelectMany?: boolean; resolves?: boolean; dnd?: { drag: string[]; drop: string[] } }> = {
  'datagrok.groups': { showCollapseAll: true },
  'datagrok.functions': { showCollapseAll: true, resolves: true },
  'datagrok.runs': {},
  'datagrok.tables': { canSelectMany: true },
  'datagrok.dashboards': { canSelectMany: true },
  'datagrok.files': { showCollapseAll: true, dnd: { drag: ['text/uri-list'], drop: ['text/uri-list', 'files'] } },
  'datagrok.packages': { showCollapseAll: true },
};
export const FILE_SYSTEMS: Record<string, { isCaseSensitive?: boolean; isReadonly?: boolean }> = {
  datagrok: { isCaseSensitive: true },
  'datagrok-result': { isReadonly: true, isCaseSensitive: true },
  'datagrok-bundle-code': { isCaseSensitive: true },
};
export const TEXT_CONTENT = ['datagrok-schema', 'datagrok-bundle', 'datagrok-script'];
/** The Test Explorer's controller of function tests (src/testing): made at activation, resolved by the features. */
export const TEST_CONTROLLER = { id: 'datagrok.functionTests', label: 'Datagrok functions' };
/** The Test Explorer's controller of package tests (src/packages/tests): a branch of its own beside the function tests. */
export const PACKAGE_TEST_CONTROLLER = { id: 'datagrok.packageTests', label: 'Datagrok packages' };
/** Custom editors (package.json customEditors), with the webview options each is registered with. */
/**
 * Task types (package.json taskDefinitions) whose provider is registered at activation, each with the files
 * without which the workspace has none of its tasks (VS Code asks every provider often: the features load
 * only for a workspace that has such a file): `datagrok`, a package's build and publish.
 */
export const TASK_TYPES: Record<string, string> = { datagrok: '**/{src/package.ts,src/package.js,package.js}' };
export const CUSTOM_EDITORS: Record<string, { retainContextWhenHidden: boolean }> = { 'datagrok.dataView': { retainContextWhenHidden: true } };
/** Notebook types (package.json notebooks), with the options each serializer is registered with: outputs are the serializer's to keep or leave out. */
/** Outputs are transient: a notebook that saves them keeps their saved forms in its cells' metadata (src/notebook/savedOutputs.ts). */
export const NOTEBOOKS: Record<string, vscode.NotebookDocumentContentOptions> = { 'datagrok-notebook': { transientOutputs: true } };
export const PARAMETER_FILES: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];
export const COMPLETION_TRIGGERS = ['"', ':', '/'];
/** A workspace holding one of these loads the features once activation is over: a linked folder's Source Control entry shows from the start. */
export const LOAD_WHEN_WORKSPACE_CONTAINS = '**/.datagrok/sync.json';
export const CODE_ACTION_KINDS = [vscode.CodeActionKind.QuickFix];
