// What a package debug session needs before the browser starts, in order: the package (a folder that is
// one), the server (signed in), the browser (the configuration's or one found), the package published
// (debug) to the server by `datagrok.packages.publish`, a session token for the key, and the extension's
// browser profile signed in with it (src/platform/packages/debug/browserSignIn.ts). Each step fails with
// what to do; the token and the key never appear in a message, a log line or the configuration.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { notSignedIn } from '../connection/signInFailure';
import type { ProgressReporter } from '../core/progress';
import { findBrowser, noBrowserMessage } from '../platform/packages/debug/browserPath';
import { signBrowserProfileIn } from '../platform/packages/debug/browserSignIn';
import { chromeConfiguration, type DatagrokLaunch, pageUrl, webOrigin } from '../platform/packages/debug/debugConfiguration';
import { findPackageFolders, isPackageFolder, packageFolderOf } from '../platform/packages/recognition';
import type { Services } from '../services';

export const PUBLISH_COMMAND = 'datagrok.packages.publish';
const WHAT_A_PACKAGE_IS = 'a Datagrok package is a folder with a package.json that depends on datagrok-api, and src/package.ts (or package.js)';

/** The browser profile of the extension's debug sessions (under its global storage). */
export function debugProfile(services: Services): string {
  return path.join(services.context.globalStorageUri.fsPath, 'debug-browser');
}

/** The package to debug: the configuration's `package`, else the active editor's, else the workspace's only one. */
export function launchFolder(given: string | undefined, workspaceFolder: string | undefined): string {
  if (given !== undefined && given.trim() !== '') {
    const folder = path.resolve(workspaceFolder ?? '', given.trim());
    if (!isPackageFolder(folder)) throw badInput(`${folder} is not a Datagrok package: ${WHAT_A_PACKAGE_IS}. Set "package" in the launch configuration to the package's folder.`);
    return folder;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const current = active?.scheme === 'file' ? packageFolderOf(active.fsPath) : undefined;
  if (current) return current;
  const roots = workspaceFolder ? [workspaceFolder] : (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const all = [...new Set(roots.flatMap((root) => findPackageFolders(root)))];
  if (all.length === 1) return all[0];
  if (all.length === 0)
    throw badInput(
      `No Datagrok package to debug in ${roots.join(', ') || 'this window'}: ${WHAT_A_PACKAGE_IS}. Open the package's folder, or set "package" in the launch configuration.`,
    );
  throw badInput(
    `This workspace has ${all.length} Datagrok packages (${all.map((f) => path.basename(f)).join(', ')}): set "package" in the launch configuration to the one to debug.`,
  );
}

function packageName(folder: string): string {
  const json = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name?: unknown };
  if (typeof json.name !== 'string' || json.name.trim() === '') throw badInput(`${path.join(folder, 'package.json')} has no "name": give the package its name first.`);
  return json.name.trim();
}

function browserOf(given: string | undefined): string {
  if (given !== undefined && given.trim() !== '') {
    if (!existsSync(given)) throw badInput(`The "runtimeExecutable" of the launch configuration, ${given}, does not exist: set it to the path of Chrome, Edge or Chromium.`);
    return given;
  }
  const found = findBrowser({ platform: process.platform, env: process.env, exists: existsSync });
  if (!found) throw badInput(noBrowserMessage(process.platform));
  return found;
}

async function publish(folder: string): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  if (!commands.includes(PUBLISH_COMMAND))
    throw badInput(
      `Publishing before debugging needs the command ${PUBLISH_COMMAND}, which this build of the extension lacks: publish the package with \`grok publish\` and set "publish": false in the launch configuration.`,
    );
  await vscode.commands.executeCommand(PUBLISH_COMMAND, { folder: vscode.Uri.file(folder), build: true });
}

/** Runs the steps and returns the `pwa-chrome` configuration to launch. */
export async function prepareLaunch(
  services: Services,
  config: DatagrokLaunch,
  workspaceFolder: string | undefined,
  progress: ProgressReporter,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { connection, log } = services;
  const folder = launchFolder(config.package, workspaceFolder);
  const name = packageName(folder);
  if (!(await connection.hasActiveKey())) throw notSignedIn(connection.baseUrl());
  const root = webOrigin(connection.baseUrl());
  const url = pageUrl(root, config.url);
  const browser = browserOf(config.runtimeExecutable);
  const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
    progress.message(stage);
    const started = performance.now();
    const result = await work();
    log.info(`Debug ${name}: ${stage} took ${(performance.now() - started).toFixed(0)} ms`);
    return result;
  };
  if (config.publish !== false) await timed('publishing (debug)', () => publish(folder));
  signal.throwIfAborted();
  const client = await connection.client();
  const token = await timed('signing the browser in', () => client.sessionToken({ signal }));
  const profile = debugProfile(services);
  await timed('writing the session into the browser profile', () => signBrowserProfileIn({ browser, profile, origin: new URL(root).origin, token }));
  log.info(`Debug ${name}: ${browser} opens ${url} (profile ${profile})`);
  return chromeConfiguration({ folder, packageName: name, url, browser, profile, runtimeArgs: config.runtimeArgs, name: config.name });
}
