// What every feature is built from; made once in extension.ts (the composition root).
import type * as vscode from 'vscode';
import type { Connection } from './connection/connection';
import type { CommandLayer } from './core/commands';
import type { Contributions } from './core/contributions';
import type { Platform } from './platform';

export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  /** The one seam to the server: which server, its key, a client bound to both. */
  readonly connection: Connection;
  /** Every command goes through it: progress, cancel, errors, logging. */
  readonly commands: CommandLayer;
  /** What is known about the active server: groups, tables and dashboards made here, files seen. */
  readonly platform: Platform;
  /** Where views, file systems, providers and tools are registered (the stand-ins made at activation). */
  readonly contributions: Contributions;
}

/** What an explorer view of the server's entities (Tables, Dashboards) takes from the services. */
export function entityViewDeps(s: Services) {
  return { log: s.log, subscriptions: s.context.subscriptions, connection: s.connection, catalog: s.platform.catalog, contributions: s.contributions };
}
