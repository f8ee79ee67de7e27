import type * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import type { CommandLayer } from './commands';

/** What every feature is built from; made once in extension.ts (the composition root). */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly connection: Connection;
  readonly commands: CommandLayer;
}
