// Pulled scripts opened read-only (no workspace folder to write them in): `datagrok-script:/<kind>/<id>/<Name>.py`,
// their text kept in memory; a restored editor after a reload reads the script from the server again.
import * as vscode from 'vscode';
import type { ScriptKind } from '../api/types';
import type { Services } from '../services';

export const PULLED_SCHEME = 'datagrok-script';

export class PulledScripts implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly services: Services) {}

  /** Keeps a pulled script's text; its read-only document's Uri. */
  put(kind: ScriptKind, id: string, fileName: string, code: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PULLED_SCHEME, path: `/${kind}/${encodeURIComponent(id)}/${fileName}` });
    const before = this.texts.get(uri.toString());
    this.texts.set(uri.toString(), code);
    if (before !== undefined && before !== code) this.changed.fire(uri);
    return uri;
  }

  /** The text of a pulled script: kept, or read from the server again (after a reload). */
  async text(uri: vscode.Uri): Promise<string> {
    const kept = this.texts.get(uri.toString());
    if (kept !== undefined) return kept;
    const [, kind, id] = uri.path.split('/');
    if ((kind !== 'script' && kind !== 'query') || !id) throw new Error(`${uri.toString(true)} is not a pulled script.`);
    const entity = await (await this.services.connection.client()).getScript(kind, decodeURIComponent(id));
    const code = String((kind === 'query' ? entity.query : entity.script) ?? '');
    this.texts.set(uri.toString(), code);
    return code;
  }

  provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    return this.text(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
