// The commands that hand the signed-in connection to the user's own programs, each only on request:
// "Use Datagrok in Terminals" (new integrated terminals get DATAGROK_API_URL and DATAGROK_API_KEY),
// "Write .env for Python" (.datagrok/.env for the Python extension, git-ignored), "Copy Python Snippet"
// (reads the variables; no key in it), "Add This Server to grok" (an alias in ~/.grok/config.yaml, after
// a modal yes naming the file and that it holds the key). With options, none asks. Both files holding the
// key are written readable by the user alone (0600 on POSIX, core/privateFile.ts).
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { optionalText, uriOption } from '../core/options';
import { confinedTarget, modeText, type PrivateFileWrite, writeKeyFile } from '../core/privateFile';
import type { Services } from '../services';
import { ENV_DIR, ENV_FILE, ENV_KEY, ENV_URL, envFileText, pythonSnippet } from './credentials';
import { aliasFor, checkAlias, withServer } from '../platform/grokConfig';
import type { TerminalEnvironment } from './terminalEnvironment';

function checkKeys(options: object | undefined, allowed: string[], command: string): void {
  for (const key of Object.keys(options ?? {})) {
    if (!allowed.includes(key)) throw badInput(`Unknown option "${key}" for ${command}: it takes ${allowed.length ? allowed.map((k) => `"${k}"`).join(', ') : 'no options'}.`);
  }
}

const POSIX = process.platform !== 'win32';

/** Where a file holding the key now is and who can read it, for the message after writing it. */
function privateNote(written: PrivateFileWrite): string {
  if (!POSIX) return `${written.path} holds your API key.`;
  const was = written.tightenedFrom === undefined ? '' : ` It was readable by others (mode ${modeText(written.tightenedFrom)}); now only you can read it.`;
  return `${written.path} holds your API key, readable only by you (mode 0600).${was}`;
}

function optionalBool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badInput(`"${name}" must be true or false.`);
  return value;
}

async function useInTerminals(t: TerminalEnvironment, inv: CommandInvocation<{ enabled?: boolean }>) {
  checkKeys(inv.options, ['enabled'], 'datagrok.terminal.useInTerminals');
  let enabled = optionalBool(inv.options?.enabled, 'enabled') ?? true;
  if (inv.interactive && t.enabled) {
    const turnOff = 'Stop: remove the variables from new terminals';
    const pick = await vscode.window.showQuickPick(['Keep: new terminals get the variables', turnOff], { title: `Datagrok in terminals is on (${ENV_URL}, ${ENV_KEY})` });
    if (!pick) throw new UserCancelled();
    enabled = pick !== turnOff;
  }
  await t.setWorkspaceOptIn(enabled);
  const on = t.enabled && (await t.credentials()) !== undefined;
  if (inv.interactive) {
    void vscode.window.showInformationMessage(
      on
        ? `New terminals in this workspace get ${ENV_URL} and ${ENV_KEY} (your API key): any program run there can use them. Open terminals are marked stale; sign-out removes them.`
        : `New terminals no longer get ${ENV_URL} and ${ENV_KEY}${enabled ? ' (sign in first)' : ''}.`,
    );
  }
  return { enabled: on, variables: on ? [ENV_URL, ENV_KEY] : [] };
}

/** Writes .datagrok/.env (0600; and .datagrok/.gitignore with `*`) into a folder on disk; the caller asked for it. */
async function writeEnvFileInto(t: TerminalEnvironment, folder: vscode.Uri): Promise<{ file: vscode.Uri; written: PrivateFileWrite }> {
  const found = await t.credentials();
  if (!found) throw new Error('Not signed in to a Datagrok server: run "Datagrok: Sign In" first, then write the .env file.');
  const dir = vscode.Uri.joinPath(folder, ENV_DIR);
  const file = vscode.Uri.joinPath(dir, ENV_FILE);
  const gitignore = vscode.Uri.joinPath(dir, '.gitignore');
  // Both stay in the folder: a link there (.datagrok, or either file) is refused before anything is written.
  for (const f of [file, gitignore]) await confinedTarget(f.fsPath, folder.fsPath);
  await vscode.workspace.fs.createDirectory(dir);
  await vscode.workspace.fs.writeFile(gitignore, new TextEncoder().encode('*\n'));
  const written = await writeKeyFile(file.fsPath, envFileText(found.url, found.key), t.log, folder.fsPath);
  return { file, written };
}

async function writeEnvFile(t: TerminalEnvironment, inv: CommandInvocation<{ folder?: vscode.Uri }>) {
  checkKeys(inv.options, ['folder'], 'datagrok.python.writeEnvFile');
  const local = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  let folder = uriOption(inv.options?.folder, 'folder');
  if (folder && !local.some((f) => f.uri.toString() === folder?.toString()))
    throw badInput(`"folder" must be a workspace folder on disk: ${local.map((f) => f.uri.fsPath).join(', ') || 'none is open'}.`);
  if (!folder) {
    if (local.length === 0) throw badInput('Open a folder first: the .env file goes into a workspace folder (.datagrok/.env).');
    if (local.length === 1 || !inv.interactive) folder = local[0].uri;
    else {
      const pick = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'The folder to write .datagrok/.env into' });
      if (!pick) throw new UserCancelled();
      folder = pick.uri;
    }
  }
  const target = vscode.Uri.joinPath(folder, ENV_DIR, ENV_FILE);
  if (inv.interactive) {
    const yes = 'Write .env';
    const answer = await vscode.window.showWarningMessage(
      `Write ${target.fsPath}?`,
      {
        modal: true,
        detail: `It holds ${ENV_URL} and ${ENV_KEY} (your API key) in plain text${POSIX ? ', readable only by you (mode 0600),' : ''} for the Python extension and your own programs. .datagrok/.gitignore keeps it out of git; sign-out removes it.`,
      },
      yes,
    );
    if (answer !== yes) throw new UserCancelled();
  }
  const { file, written } = await writeEnvFileInto(t, folder);
  if (inv.interactive) void vscode.window.showInformationMessage(`Wrote .env for Python: ${privateNote(written)} Sign-out removes it.`);
  return file;
}

async function copySnippet(inv: CommandInvocation<Record<string, never>>) {
  checkKeys(inv.options, [], 'datagrok.python.copySnippet');
  const text = pythonSnippet();
  await vscode.env.clipboard.writeText(text);
  if (inv.interactive) void vscode.window.showInformationMessage(`Copied a Python snippet that reads ${ENV_URL} and ${ENV_KEY} (no key in it).`);
  return text;
}

async function addToGrok(t: TerminalEnvironment, inv: CommandInvocation<{ alias?: string; default?: boolean; configFile?: vscode.Uri }>) {
  checkKeys(inv.options, ['alias', 'default', 'configFile'], 'datagrok.grok.addServer');
  const found = await t.credentials();
  if (!found) throw badInput('Not signed in to a Datagrok server: run "Datagrok: Sign In" first.');
  const file = uriOption(inv.options?.configFile, 'configFile') ?? vscode.Uri.file(path.join(os.homedir(), '.grok', 'config.yaml'));
  if (file.scheme !== 'file') throw badInput('"configFile" must be a file on disk.');
  let alias = optionalText(inv.options?.alias, '"alias"') || undefined;
  const makeDefault = optionalBool(inv.options?.default, 'default') ?? false;
  if (!alias && inv.interactive) {
    alias = await vscode.window.showInputBox({
      title: 'Add This Server to grok',
      prompt: `The alias for ${found.url} (grok --host <alias>)`,
      value: aliasFor(found.url),
      validateInput: (v) => {
        try {
          checkAlias(v);
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    if (alias === undefined) throw new UserCancelled();
  }
  alias = checkAlias(alias ?? aliasFor(found.url));
  let existing: string | undefined;
  try {
    existing = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    existing = undefined;
  }
  const text = withServer(existing, alias, found.url, found.key, makeDefault);
  if (inv.interactive) {
    const yes = 'Add to grok';
    const answer = await vscode.window.showWarningMessage(
      `Add ${alias} to ${file.fsPath}?`,
      {
        modal: true,
        detail: `The grok CLI reads this file. It will hold your API key for ${found.url} in plain text (servers.${alias}.key)${POSIX ? ', readable only by you (mode 0600)' : ''}; the rest of the file is kept. Sign-out does not remove it.`,
      },
      yes,
    );
    if (answer !== yes) throw new UserCancelled();
  }
  const written = await writeKeyFile(file.fsPath, text, t.log);
  if (inv.interactive) void vscode.window.showInformationMessage(`Added ${alias} to grok (grok --host ${alias}): ${privateNote(written)}`);
  return { file, alias };
}

/** Registers the commands; the terminals' variables themselves are kept by `terminals` (made at activation). */
export function registerTerminals(services: Services, terminals: TerminalEnvironment | undefined): void {
  const t = () => {
    if (!terminals) throw new Error('The Datagrok terminal environment is not available in this window.');
    return terminals;
  };
  services.context.subscriptions.push(
    services.commands.register<{ enabled?: boolean }>('datagrok.terminal.useInTerminals', (inv) => useInTerminals(t(), inv)),
    services.commands.register<{ folder?: vscode.Uri }>('datagrok.python.writeEnvFile', (inv) => writeEnvFile(t(), inv)),
    services.commands.register<Record<string, never>>('datagrok.python.copySnippet', (inv) => copySnippet(inv)),
    services.commands.register<{ alias?: string; default?: boolean; configFile?: vscode.Uri }>('datagrok.grok.addServer', (inv) => addToGrok(t(), inv)),
  );
}
