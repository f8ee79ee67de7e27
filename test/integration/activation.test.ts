// The extension as VS Code sees it: installed, activated by its commands, every command registered.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { log } from './index';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';

interface ContributedCommand {
  command: string;
}

describe('Activation', () => {
  before(() => {
    log(`VS Code ${vscode.version} (${vscode.UIKind[vscode.env.uiKind]}, ${vscode.env.appName})`);
  });

  it('is installed under its published id', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    assert.equal(extension.packageJSON.name, 'datagrok-vscode');
  });

  it('activates when one of its commands runs', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    // Show Log has no side effect beyond revealing the output channel. Its onCommand activation
    // event activates the extension before the command is looked up, so activation is checked
    // even if the command were missing (the next test reports that).
    await vscode.commands.executeCommand('datagrok.showLog').then(undefined, () => undefined);
    assert.equal(extension.isActive, true);
    // isActive is also true after a failed activation; activate() then rejects with its error.
    await extension.activate();
  });

  it('registers every command it contributes', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    await extension.activate();
    const contributed = (extension.packageJSON.contributes.commands as ContributedCommand[]).map((c) => c.command);
    assert.ok(contributed.includes('datagrok.signIn'), 'package.json contributes datagrok.signIn');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.ok(missing.length === 0, `contributed but not registered: ${missing.join(', ')}`);
  });
});
