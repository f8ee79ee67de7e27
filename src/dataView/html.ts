// The data view's webview page: a strict content security policy (nothing remote; the script and the
// styles carry a nonce), VS Code's theme variables in the CSS. The script and styles are written into the
// page rather than linked: a linked file is fetched through the webview's service worker and the
// extension host, one round trip each, before the page can ask for its first rows.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';

/** dist/ files, read once per extension host. */
const texts = new Map<string, string>();

function distText(extensionUri: vscode.Uri, file: string): string {
  let text = texts.get(file);
  if (text === undefined) {
    // `</` cannot end the element early: in script and CSS text, `<\/` means the same.
    text = readFileSync(vscode.Uri.joinPath(extensionUri, 'dist', file).fsPath, 'utf8').replace(/<\//g, '<\\/');
    texts.set(file, text);
  }
  return text;
}

export function dataViewHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [`default-src 'none'`, `img-src ${webview.cspSource} data:`, `style-src 'nonce-${nonce}'`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">${distText(extensionUri, 'dataViewWebview.css')}</style>
<title>Data View</title>
</head>
<body>
<div id="app" aria-busy="true">Opening…</div>
<script nonce="${nonce}">${distText(extensionUri, 'dataViewWebview.js')}</script>
</body>
</html>`;
}
