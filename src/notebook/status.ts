// What the notebook shows beside its cells: a stale mark on a cell whose inputs changed above it (the
// cell's status bar), and the notebook's variables (a status bar item: how many; its tooltip and its
// command list each one's name, type, rows × columns and the cell that made it).
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';
import { describeVariable } from '../platform/notebook/variables';
import type { NotebookSessions } from './session';

const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&').replace(/\n/g, ' ');

export class StaleMarks implements vscode.NotebookCellStatusBarItemProvider {
  readonly onDidChangeCellStatusBarItems: vscode.Event<void>;

  constructor(private readonly sessions: NotebookSessions) {
    this.onDidChangeCellStatusBarItems = sessions.onDidChange;
  }

  provideCellStatusBarItems(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem[] {
    if (!this.sessions.peek(cell.notebook)?.isStale(cell)) return [];
    const item = new vscode.NotebookCellStatusBarItem('$(warning) Stale', vscode.NotebookCellStatusBarAlignment.Left);
    item.tooltip = 'What this cell takes changed above it (a cell it reads from was edited or ran again): run it again.';
    return [item];
  }
}

export class VariablesStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('datagrok.notebookVariables', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly sessions: NotebookSessions) {
    this.item.name = 'Datagrok Notebook Variables';
    this.item.command = 'datagrok.notebooks.showVariables';
    this.subscriptions = [this.item, sessions.onDidChange(() => this.update()), vscode.window.onDidChangeActiveNotebookEditor(() => this.update())];
    this.update();
  }

  private update(): void {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    if (!notebook || notebook.notebookType !== NOTEBOOK_TYPE) {
      this.item.hide();
      return;
    }
    const variables = this.sessions.peek(notebook)?.variables.list() ?? [];
    this.item.text = `$(symbol-variable) ${variables.length} variable${variables.length === 1 ? '' : 's'}`;
    const tooltip = new vscode.MarkdownString('**Datagrok notebook variables**\n\n');
    if (variables.length === 0) tooltip.appendMarkdown("None yet: a cell's outputs become variables when it runs.");
    else {
      tooltip.appendMarkdown('| name | type | shape or value | cell |\n|---|---|---|---|\n');
      for (const v of variables) tooltip.appendMarkdown(`| ${escapeMarkdown(v.name)} | ${escapeMarkdown(v.type)} | ${escapeMarkdown(describeVariable(v))} | ${v.cell + 1} |\n`);
    }
    this.item.tooltip = tooltip;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
