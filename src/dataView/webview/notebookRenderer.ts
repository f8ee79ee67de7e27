// The notebook's table renderer (dist/notebookRenderer.js, an ES module VS Code loads into the notebook's
// output webview): a table output shown in the data view's page, its rows, sort, filter, summaries and
// charts asked of the extension over renderer messaging, by the output's id. Each output gets a shadow
// root, so the page's styles reach no other output. The output item carries the columns and the first
// rows: the grid shows them before the extension answers anything.
import type { ActivationFunction } from 'vscode-notebook-renderer';
import uplotCss from 'uplot/dist/uPlot.min.css';
import type { HostMessage, NotebookTableItem, RendererEnvelope, WebviewMessage } from '../../platform/dataView/protocol';
import pageCss from './dataView.css';
import { type DataViewPage, mountDataView } from './view';

/** The page in an output: as tall as 16 rows or the table, whichever is less, and the column panel. */
const OWN_CSS = `
:host { display: block; }
#app {
  display: flex; flex-direction: column; height: var(--height, 420px); overflow: hidden;
  color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size);
  border: 1px solid var(--vscode-editorWidget-border, var(--vscode-panel-border, transparent));
}
/* The column panel (summary and a chart) needs room: the output grows while it is open. */
#app:has(.panel:not([hidden])) { height: max(var(--height, 420px), 470px); }
.gone { padding: 8px; color: var(--vscode-descriptionForeground); }
`;

interface Shown {
  output: string;
  page: DataViewPage;
  app: HTMLElement;
}

export const activate: ActivationFunction = (context) => {
  const shown = new Map<string, Shown>();
  context.onDidReceiveMessage?.((e: RendererEnvelope<HostMessage>) => {
    for (const s of shown.values()) {
      if (s.output !== e.output) continue;
      if (e.message.type === 'error' && e.message.gone) {
        s.page.dispose();
        const note = document.createElement('div');
        note.className = 'gone';
        note.textContent = e.message.message;
        s.app.style.height = 'auto';
        s.app.replaceChildren(note);
      } else s.page.receive(e.message);
    }
  });
  return {
    renderOutputItem(item, element) {
      shown.get(item.id)?.page.dispose();
      const table = item.json() as NotebookTableItem;
      const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = `${pageCss}\n${uplotCss}\n${OWN_CSS}`;
      const app = document.createElement('div');
      app.id = 'app';
      app.style.setProperty('--height', `${Math.min(16, Math.max(3, table.rows)) * 22 + 90}px`);
      root.replaceChildren(style, app);
      const post = context.postMessage;
      if (!post) {
        app.textContent = `${table.name}: ${table.rows.toLocaleString('en-US')} rows. This output needs the Datagrok extension to show its rows.`;
        return;
      }
      const send = (message: WebviewMessage) => post({ output: table.id, message } satisfies RendererEnvelope<WebviewMessage>);
      const page = mountDataView(app, send, app);
      shown.set(item.id, { output: table.id, page, app });
      page.receive({
        type: 'meta',
        title: table.name,
        columns: table.columns,
        rowCount: { rows: table.rows, exact: true },
        actions: ['saveAs', 'push'],
        source: `${table.name}: dataframe, ${table.rows.toLocaleString('en-US')} rows × ${table.columns.length} columns`,
        rows: table.first,
      });
      // Tells the extension the output is on show (it opens the file's reader now) or learns that its rows are gone.
      send({ type: 'ready' });
    },
    disposeOutputItem(id) {
      for (const [key, s] of shown) {
        if (id !== undefined && key !== id) continue;
        s.page.dispose();
        shown.delete(key);
      }
    },
  };
};
