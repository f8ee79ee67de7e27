import type { Services } from '../services';
import { openTableCommand } from './openCommand';
import { pushTableCommand } from './pushCommand';

/** Registers the tables feature: push a CSV as a table, open a table as CSV. */
export function registerTables(services: Services): void {
  const recent = services.platform.tables;
  services.context.subscriptions.push(
    services.commands.register('datagrok.tables.push', (inv) => pushTableCommand(services, recent, inv)),
    services.commands.register('datagrok.tables.open', (inv) => openTableCommand(services, recent, inv)),
  );
}
