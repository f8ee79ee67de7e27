// `datagrok.packages.publish`: check → build (when asked, or when dist/ is missing) → pack → upload → verify,
// under one cancellable progress that names each step and the bytes sent. With options `{ folder: Uri,
// server?, release?, build? }` it returns what the server lists: `{ name, version, debug, functions }`. From
// the palette, an editor title (package.json, package.ts) or the Packages view it publishes a debug version
// to the active server. A failed build shows its output; every failure says what was (not) published.
import * as vscode from 'vscode';
import { badInput, DatagrokError } from '../api/errors';
import { hostOf, normalizeBaseUrl } from '../api/names';
import { type CommandInvocation, withErrorActions } from '../core/commands';
import { PublishError } from '../platform/packages/publish/errors';
import { publishPackageFolder } from '../platform/packages/publish/publish';
import type { Services } from '../services';
import { optionFolder, pickedFolder } from './checkCommand';
import type { PackageDiagnostics } from './packageDiagnostics';

export interface PublishCommandOptions {
  folder?: unknown;
  server?: unknown;
  release?: unknown;
  build?: unknown;
}

export interface PublishResult {
  name: string;
  version: string;
  debug: boolean;
  functions: string[];
}

function flag(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badInput(`The option "${name}" must be true or false.`);
  return value;
}

/** The build's output: one channel, shown when a build fails. */
let buildOutput: vscode.OutputChannel | undefined;
export function packageBuildOutput(): vscode.OutputChannel {
  buildOutput ??= vscode.window.createOutputChannel('Datagrok: Package Build');
  return buildOutput;
}

export async function publishCommand(services: Services, diagnostics: PackageDiagnostics, inv: CommandInvocation<PublishCommandOptions>): Promise<PublishResult> {
  const options = inv.options;
  const folder = options
    ? optionFolder(options.folder)
    : await pickedFolder(diagnostics, inv.arg, 'Publish which Datagrok package?', 'It is published as a debug version to the active server');
  const release = flag(options?.release, 'release') ?? false;
  const build = flag(options?.build, 'build');
  const rawServer = options?.server;
  if (rawServer !== undefined && typeof rawServer !== 'string') throw badInput('The option "server" must be a server URL ending in /api.');
  const url = rawServer ? normalizeBaseUrl(rawServer) : services.connection.baseUrl();
  const client = await services.connection.clientFor(url);
  const output = packageBuildOutput();
  const kind = release ? 'release' : 'debug version';
  const result = await inv
    .withProgress(`Publishing a ${kind} to ${hostOf(url)}`, (progress, signal) =>
      publishPackageFolder(client, {
        folder,
        release,
        build,
        signal,
        onStage: (_stage, detail) => {
          progress.message(detail);
          services.log.info(`Publish: ${detail}`);
        },
        onProgress: progress.bytes,
        onOutput: (text) => output.append(text),
      }),
    )
    .catch((e: unknown) => {
      throw explain(e, folder);
    });
  if (inv.interactive) {
    void vscode.window.showInformationMessage(
      `Published ${result.name} ${result.version}${result.debug ? ' (debug: only you see it)' : ''} to ${hostOf(url)}: the server lists its ${result.functions.length} functions.`,
    );
  }
  return result;
}

/** A stopped publish as the user needs it: the build's output at hand, a cancel said as such. */
function explain(e: unknown, folder: string): unknown {
  if (e instanceof PublishError && e.step === 'build') {
    const channel = packageBuildOutput();
    if (e.output) channel.append(e.output.endsWith('\n') ? e.output : `${e.output}\n`);
    channel.show(true);
    return withErrorActions(badInput(e.message), [{ title: 'Show Build Output', run: () => channel.show() }]);
  }
  if (e instanceof PublishError) return badInput(e.message);
  if (e instanceof Error && e.name === 'AbortError')
    return new DatagrokError('cancelled', `Publishing ${folder} was cancelled: the server did not confirm it, so nothing is claimed published.`);
  return e;
}
