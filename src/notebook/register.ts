// The Datagrok notebook (*.dgnb): the serializer (behind the stand-in registered at activation), a kernel
// per server, stale marks and the variables, the commands.
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';
import type { Services } from '../services';
import { exportJupyter } from './exportJupyter';
import { newNotebook, runNotebook, saveOutputs, showVariables, type NotebookContext } from './commands';
import { registerCellLanguage } from './cellLanguage';
import { NotebookKernels } from './kernel';
import { SavedOutputs } from './savedOutputs';
import { NotebookSerializer } from './serializer';
import { NotebookSessions } from './session';
import { StaleMarks, VariablesStatus } from './status';
import { createDashboard, pushTables } from './tableCommands';

export function registerNotebook(services: Services): void {
  const { commands, context, contributions } = services;
  const sessions = new NotebookSessions();
  const kernels = new NotebookKernels(services, sessions);
  const savedOutputs = new SavedOutputs();
  const c: NotebookContext = { kernels, sessions, savedOutputs };
  context.subscriptions.push(
    contributions.notebookSerializer(NOTEBOOK_TYPE, new NotebookSerializer()),
    sessions,
    kernels,
    savedOutputs,
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, new StaleMarks(sessions)),
    new VariablesStatus(sessions),
    commands.register('datagrok.notebooks.new', () => newNotebook()),
    commands.register('datagrok.notebooks.run', (inv) => runNotebook(c, inv)),
    commands.register('datagrok.notebooks.saveOutputs', (inv) => saveOutputs(c, inv)),
    commands.register('datagrok.notebooks.showVariables', (inv) => showVariables(c, inv)),
    commands.register('datagrok.notebooks.pushTables', (inv) => pushTables(services, c, inv)),
    commands.register('datagrok.notebooks.createDashboard', (inv) => createDashboard(services, c, inv)),
    commands.register('datagrok.notebooks.exportJupyter', (inv) => exportJupyter(services, c, inv)),
    ...registerCellLanguage(services, sessions),
  );
}
