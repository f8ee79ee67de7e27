// The packages feature: Datagrok packages developed in this workspace. When one of a package's files is
// opened or saved, grok check's rules run on the package without the CLI and their findings show in
// Problems, following the edits of its source files as they are typed (packageDiagnostics.ts);
// `datagrok.packages.check` returns them (checkCommand.ts). The function annotations of its source files
// (comments and decorators) get completion, hover, the Outline, quick fixes and the conversions between
// both forms (annotation*.ts). The features load when such a file is shown (src/start/parameterFileWatch.ts,
// src/core/packageFileNames.ts); the providers answer for recognised packages' source files only. The
// Packages view lists the workspace's packages and their functions (packagesView.ts); package tests
// (tests/) are the Test Explorer's "Datagrok packages" branch and `datagrok.packages.test`.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { AnnotationActionProvider, ANNOTATION_ACTION_KINDS } from './annotationActions';
import { AnnotationCompletionProvider, COMPLETION_TRIGGERS } from './annotationCompletion';
import { AnnotationHoverProvider } from './annotationHover';
import { AnnotationSymbolProvider } from './annotationSymbols';
import { checkCommand } from './checkCommand';
import { PackageDiagnostics } from './packageDiagnostics';
import { PACKAGE_SOURCE_SELECTOR, PackageSources } from './packageSources';
import type { PackagesTree } from './packagesTree';
import { registerPackagesView } from './packagesView';
import { type PackageTests, registerPackageTests } from './tests/register';
import { PackageTaskProvider, TASK_TYPE } from './packageTasks';
import { publishCommand } from './publishCommand';

export function registerPackages(services: Services): { diagnostics: PackageDiagnostics; packagesTree: PackagesTree; packageTests: PackageTests } {
  const diagnostics = new PackageDiagnostics(services.log);
  const sources = new PackageSources((uri) => diagnostics.packageOf(uri));
  services.context.subscriptions.push(
    diagnostics,
    services.commands.register('datagrok.packages.check', (inv) => checkCommand(diagnostics, inv)),
    vscode.languages.registerCompletionItemProvider(PACKAGE_SOURCE_SELECTOR, new AnnotationCompletionProvider(sources), ...COMPLETION_TRIGGERS),
    vscode.languages.registerHoverProvider(PACKAGE_SOURCE_SELECTOR, new AnnotationHoverProvider(sources)),
    vscode.languages.registerDocumentSymbolProvider(PACKAGE_SOURCE_SELECTOR, new AnnotationSymbolProvider(sources), { label: 'Datagrok functions' }),
    vscode.languages.registerCodeActionsProvider(PACKAGE_SOURCE_SELECTOR, new AnnotationActionProvider(sources, (d) => diagnostics.sourceFindings(d)), {
      providedCodeActionKinds: ANNOTATION_ACTION_KINDS,
    }),
    services.commands.register('datagrok.packages.publish', (inv) => publishCommand(services, diagnostics, inv)),
    services.contributions.taskProvider(TASK_TYPE, new PackageTaskProvider(services)),
  );
  return { diagnostics, packagesTree: registerPackagesView(services), packageTests: registerPackageTests(services) };
}
