// The packages feature: Datagrok packages developed in this workspace. When one of a package's files is
// opened or saved, grok check's rules run on the package without the CLI and their findings show in
// Problems (packageDiagnostics.ts); `datagrok.packages.check` returns them (checkCommand.ts). The Packages
// view lists the workspace's packages and their functions (packagesView.ts). The features
// load when such a file is shown (src/start/parameterFileWatch.ts, src/core/packageFileNames.ts).
// Package tests (tests/) are the Test Explorer's "Datagrok packages" branch and `datagrok.packages.test`.
import type { Services } from '../services';
import { checkCommand } from './checkCommand';
import { PackageDiagnostics } from './packageDiagnostics';
import type { PackagesTree } from './packagesTree';
import { registerPackagesView } from './packagesView';
import { type PackageTests, registerPackageTests } from './tests/register';

export function registerPackages(services: Services): { diagnostics: PackageDiagnostics; packagesTree: PackagesTree; packageTests: PackageTests } {
  const diagnostics = new PackageDiagnostics(services.log);
  services.context.subscriptions.push(
    diagnostics,
    services.commands.register('datagrok.packages.check', (inv) => checkCommand(diagnostics, inv)),
  );
  return { diagnostics, packagesTree: registerPackagesView(services), packageTests: registerPackageTests(services) };
}
