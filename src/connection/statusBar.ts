// The status bar item: which server, which user, and one click to switch server or sign in.
// The user is shown once known: loaded this session, or remembered from the last one (per server, in
// the global state). The item never sends a request itself, so activation stays free of network traffic.
// It is filled and shown on the connection's first change: its first refresh at activation, which reads
// whether a key is stored and always fires (rather than showing "Sign in" first, then the user).
import * as vscode from 'vscode';
import type { Connection } from './connection';
import { hostOf } from '../api/names';
import { displayName } from '../platform/groups/names';

export class ConnectionStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[] = [];
  private visible = false;

  constructor(private readonly connection: Connection) {
    this.item = vscode.window.createStatusBarItem('datagrok.status', vscode.StatusBarAlignment.Left, -100);
    this.item.name = 'Datagrok';
    this.subscriptions.push(
      this.item,
      connection.onDidChange(() => this.update()),
      connection.onDidLoadUser(() => this.update()),
    );
  }

  update(): void {
    let baseUrl: string;
    try {
      baseUrl = this.connection.baseUrl();
    } catch (e) {
      this.item.text = '$(warning) Datagrok: check server URL';
      this.item.tooltip = e instanceof Error ? e.message : String(e);
      this.item.command = { title: 'Open Settings', command: 'workbench.action.openSettings', arguments: ['datagrok.serverUrl'] };
      this.shown();
      return;
    }
    const host = hostOf(baseUrl);
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown('**Datagrok** server  \n');
    tooltip.appendText(baseUrl);
    tooltip.appendMarkdown('  \nRequests go ');
    tooltip.appendText(this.connection.route(baseUrl));
    tooltip.appendMarkdown('\n\n');
    if (this.connection.isSignedIn) {
      const user = this.connection.peekUser();
      const name = user ? displayName(user) : undefined;
      this.item.text = name ? `$(graph) ${host} · ${name}` : `$(graph) ${host}`;
      if (user) {
        tooltip.appendMarkdown('Signed in as ');
        tooltip.appendText(`${name} (${user.name})`);
      } else {
        tooltip.appendMarkdown('Signed in');
      }
      tooltip.appendMarkdown('\n\nClick to switch server.');
      this.item.command = 'datagrok.switchServer';
    } else {
      this.item.text = '$(graph) Datagrok: Sign in';
      tooltip.appendMarkdown('Not signed in. Click to sign in with your API key.');
      this.item.command = 'datagrok.signIn';
    }
    this.item.tooltip = tooltip;
    this.shown();
  }

  private shown(): void {
    if (this.visible) return;
    this.visible = true;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
