// The data view's webview page: a strict content security policy (nothing remote; scripts and styles
// only from the extension's dist/ folder, the script with a nonce), VS Code's theme variables in the CSS.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function dataViewHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', file)).toString();
  const csp = [`default-src 'none'`, `img-src ${webview.cspSource} data:`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join(
    '; ',
  );
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${asset('dataViewWebview.css')}">
<title>Data View</title>
</head>
<body>
<div id="app" aria-busy="true">Opening…</div>
<script nonce="${nonce}" src="${asset('dataViewWebview.js')}"></script>
</body>
</html>`;
}
