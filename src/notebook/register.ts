// The Datagrok notebook (*.dgnb): the serializer (behind the stand-in registered at activation), a kernel
// per server, stale marks and the variables, the commands, the table outputs' files and renderer messaging.
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
import { NotebookTables, type NotebookTablesApi } from './tableOutputs';
import { createDashboard, pushOutputTable, pushTables } from './tableCommands';

export function registerNotebook(services: Services): NotebookTablesApi {
  const { commands, context, contributions } = services;
  const sessions = new NotebookSessions();
  // The grid's Push as Table runs after activation, when `c` below is set.
  const tables = new NotebookTables(context, services.log, (output) => pushOutputTable(services, c, output));
  const kernels = new NotebookKernels(services, sessions, tables);
  const savedOutputs = new SavedOutputs();
  const c: NotebookContext = { kernels, sessions, savedOutputs };
  context.subscriptions.push(
    contributions.notebookSerializer(NOTEBOOK_TYPE, new NotebookSerializer()),
    sessions,
    tables,
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
  return tables;
}
