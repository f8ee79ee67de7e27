// The packages feature: Datagrok packages developed in this workspace. When one of a package's files is
// opened or saved, grok check's rules run on the package without the CLI and their findings show in
// Problems (packageDiagnostics.ts); `datagrok.packages.check` returns them (checkCommand.ts). The features
// load when such a file is shown (src/start/parameterFileWatch.ts, src/core/packageFileNames.ts).
import type { Services } from '../services';
import { checkCommand } from './checkCommand';
import { PackageDiagnostics } from './packageDiagnostics';
import { PackageTaskProvider, TASK_TYPE } from './packageTasks';
import { publishCommand } from './publishCommand';

export function registerPackages(services: Services): PackageDiagnostics {
  const diagnostics = new PackageDiagnostics(services.log);
  services.context.subscriptions.push(
    diagnostics,
    services.commands.register('datagrok.packages.check', (inv) => checkCommand(diagnostics, inv)),
    services.commands.register('datagrok.packages.publish', (inv) => publishCommand(services, diagnostics, inv)),
    services.contributions.taskProvider(TASK_TYPE, new PackageTaskProvider(services)),
  );
  return diagnostics;
}
