// The `datagrok-bundle:` documents the Source Control view's diff editors open: the server's normalised JSON of
// an entity, and a script's or query's code (the server's and the local file's) as code in its language, not as
// an escaped JSON string. Read-only; their content is what the last check saw.
import * as vscode from 'vscode';

export const BUNDLE_SCHEME = 'datagrok-bundle';

export class BundleDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** A document of that side (`server` or `local`) for a bundle file, with its content. */
  put(side: 'server' | 'local', dir: string, file: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: BUNDLE_SCHEME, path: `/${side}/${file}`, query: `dir=${encodeURIComponent(dir)}` });
    const key = uri.toString();
    if (this.contents.get(key) !== content) {
      this.contents.set(key, content);
      this.changed.fire(uri);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}
