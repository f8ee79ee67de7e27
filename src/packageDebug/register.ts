// Debugging a Datagrok package in the browser with no login (F5): the `datagrok` debug type
// (debugProvider.ts, through the stand-in registered at activation) and `datagrok.packages.debug`
// (debugCommand.ts), both on the pre-launch steps of packageLaunch.ts.
import type { Services } from '../services';
import { debugCommand } from './debugCommand';
import { PackageDebugProvider } from './debugProvider';

export function registerPackageDebug(services: Services): void {
  services.context.subscriptions.push(
    services.contributions.debugConfigurations(new PackageDebugProvider(services)),
    services.commands.register('datagrok.packages.debug', (inv) => debugCommand(services, inv)),
  );
}
