// The data view's webview: the page (view.ts) on #app, its messages to and from the extension.
import './dataView.css';
import type { HostMessage, WebviewMessage } from '../../platform/dataView/protocol';
import { mountDataView } from './view';

declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void };
const vscode = acquireVsCodeApi();
const page = mountDataView(document.getElementById('app') as HTMLElement, (message) => vscode.postMessage(message));
window.addEventListener('message', (event: MessageEvent<HostMessage>) => page.receive(event.data));
vscode.postMessage({ type: 'ready' });
