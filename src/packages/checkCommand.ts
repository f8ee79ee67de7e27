// `datagrok.packages.check`: grok check's findings of one package, as the Problems panel shows them. With
// `{ folder: Uri }` it returns them (`file` relative to the package, `line` 1-based); from the palette it
// asks which package when the workspace has several, shows the Problems panel and says the count.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { uriOption } from '../core/options';
import { findingsSummary, type RuleId, type Severity } from '../platform/packages/findings';
import { findPackageFolders, isPackageFolder, packageFolderOf } from '../platform/packages/recognition';
import type { PackageDiagnostics } from './packageDiagnostics';

/** One finding as the command returns it. */
export interface CheckFinding {
  file: string;
  line: number;
  rule: RuleId;
  severity: Severity;
  message: string;
}

const WHAT_A_PACKAGE_IS = 'a Datagrok package is a folder with a package.json that depends on datagrok-api, and src/package.ts (or package.js)';

export async function checkCommand(diagnostics: PackageDiagnostics, inv: CommandInvocation<{ folder?: unknown }>): Promise<CheckFinding[]> {
  const folder = inv.options ? optionFolder(inv.options.folder) : await pickedFolder(diagnostics, inv.arg);
  const findings = diagnostics.check(folder);
  if (inv.interactive) {
    void vscode.commands.executeCommand('workbench.actions.view.problems');
    void vscode.window.showInformationMessage(findingsSummary(path.basename(folder), findings));
  }
  return findings.map(({ file, line, rule, severity, message }) => ({ file, line, rule, severity, message }));
}

export function optionFolder(value: unknown): string {
  const uri = uriOption(value, 'folder');
  if (!uri) throw badInput(`Give the package to check as \`folder\` (the Uri of its folder): ${WHAT_A_PACKAGE_IS}.`);
  if (uri.scheme !== 'file') throw badInput(`The package must be on disk (a file: Uri), not ${uri.scheme}:.`);
  if (!isPackageFolder(uri.fsPath)) throw badInput(`${uri.fsPath} is not a Datagrok package: ${WHAT_A_PACKAGE_IS}.`);
  return uri.fsPath;
}

/** The package a menu's Uri is in; otherwise the workspace's, asked when there are several. */
export async function pickedFolder(
  diagnostics: PackageDiagnostics,
  arg: unknown,
  title = 'Check which Datagrok package?',
  placeHolder = 'grok check runs on the package you pick',
): Promise<string> {
  // A Uri from an editor title or the Explorer; an item of the Packages view carries its folder.
  const item = arg as { folder?: unknown; resourceUri?: unknown; uri?: unknown } | undefined;
  const given = arg instanceof vscode.Uri ? arg : [item?.folder, item?.resourceUri, item?.uri].find((u) => u instanceof vscode.Uri);
  if (given instanceof vscode.Uri && given.scheme === 'file') {
    const folder = isPackageFolder(given.fsPath) ? given.fsPath : packageFolderOf(given.fsPath);
    if (folder) return folder;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const current = active && diagnostics.packageOf(active);
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const all = [...new Set([...(current ? [current] : []), ...roots.flatMap((root) => findPackageFolders(root))])];
  if (all.length === 0) throw badInput(`No Datagrok package in this workspace: ${WHAT_A_PACKAGE_IS}. Open the package's folder and try again.`);
  if (all.length === 1) return all[0];
  const picked = await vscode.window.showQuickPick(
    all.map((folder) => ({ label: path.basename(folder), description: vscode.workspace.asRelativePath(folder), folder })),
    { title, placeHolder },
  );
  if (!picked) throw new UserCancelled();
  return picked.folder;
}
