// The data view's page, mounted on an element: a toolbar (title, row count, progress, actions), the grid,
// a column menu (sort, filter, summary, charts) and a side panel with the column's summary and a chart.
// Everything it shows comes through `receive` (src/platform/dataView/protocol.ts); what it asks goes out
// through `send`. The data view's webview (main.ts) and the notebook's table renderer (notebookRenderer.ts)
// both mount it.
import type uPlot from 'uplot';
import type { ColumnInfo, ColumnSummary, DataViewAction, Filter, HostMessage, RowCount, RowScope, SortSpec, WebviewMessage } from '../../platform/dataView/protocol';
import { drawChart } from './charts';
import { Grid } from './grid';

export interface DataViewPage {
  receive(message: HostMessage): void;
  dispose(): void;
}

/** Mounts the page on `app`; keys (copy, Escape) are heard on `keyTarget`. */
export function mountDataView(app: HTMLElement, send: (message: WebviewMessage) => void, keyTarget: EventTarget = document): DataViewPage {
  const ACTION_LABELS: Record<DataViewAction, string> = { saveAs: 'Save As CSV', push: 'Push as Table', browser: 'Open in Browser', text: 'Open as Text' };

  let columns: ColumnInfo[] = [];
  let filters: Filter[] = [];
  let sort: SortSpec | undefined;
  let plot: uPlot | undefined;
  let panelColumn: number | undefined;

  const h = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] => {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...children);
    return e;
  };

  const title = h('span', { className: 'title' });
  const count = h('span', { className: 'count' });
  const filterInfo = h('button', { className: 'icon', hidden: true, title: 'Remove every filter' });
  const bar = h('div');
  const progressText = h('span');
  const progress = h(
    'div',
    { className: 'progress' },
    progressText,
    h('div', { className: 'bar' }, bar),
    h('button', { className: 'icon', textContent: 'Cancel', onclick: () => send({ type: 'cancel' }) }),
  );
  const actions = h('span', { className: 'actions' });
  const panelToggle = h('button', { textContent: 'Summary & Charts', title: 'Show or hide the column summary and charts' });
  const toolbar = h('div', { className: 'toolbar' }, title, count, filterInfo, progress, h('span', { className: 'spacer' }), actions, panelToggle);
  const panel = h('aside', { className: 'panel', hidden: true });
  const menu = h('div', { className: 'menu', hidden: true });
  const grid = new Grid({
    requestRows: (start, n, tag) => send({ type: 'rows', start, count: n, tag }),
    onHeaderClick: (c, at) => openMenu(c, at),
  });

  filterInfo.onclick = () => send({ type: 'filter', filters: [] });
  panelToggle.onclick = () => {
    panel.hidden = !panel.hidden;
    if (!panel.hidden && panelColumn === undefined && columns.length > 0) showColumn(0);
  };

  function countText(rowCount: RowCount): string {
    return `${rowCount.exact ? '' : 'at least '}${rowCount.rows.toLocaleString('en-US')} row${rowCount.rows === 1 ? '' : 's'} × ${columns.length} column${columns.length === 1 ? '' : 's'}`;
  }

  const numeric = (c: number) => ['int', 'double', 'datetime'].includes(columns[c]?.type);

  function item(text: string, run: () => void): HTMLElement {
    return h('div', {
      className: 'item',
      textContent: text,
      onclick: () => {
        closeMenu();
        run();
      },
    });
  }

  function closeMenu(): void {
    menu.hidden = true;
  }

  function setFilter(filter: Filter): void {
    send({ type: 'filter', filters: [...filters.filter((f) => f.column !== filter.column), filter] });
  }

  function openMenu(c: number, at: { x: number; y: number }): void {
    const col = columns[c];
    const parts: HTMLElement[] = [
      item('Sort Ascending', () => send({ type: 'sort', sort: { column: c } })),
      item('Sort Descending', () => send({ type: 'sort', sort: { column: c, descending: true } })),
    ];
    if (sort) parts.push(item('Clear Sort', () => send({ type: 'sort' })));
    parts.push(h('div', { className: 'sep' }));
    if (numeric(c) && col.type !== 'datetime') {
      const min = h('input', { type: 'number', placeholder: 'min' });
      const max = h('input', { type: 'number', placeholder: 'max' });
      const apply = h('button', {
        textContent: 'Filter',
        onclick: () => {
          closeMenu();
          setFilter({ column: c, kind: 'range', ...(min.value !== '' ? { min: Number(min.value) } : {}), ...(max.value !== '' ? { max: Number(max.value) } : {}) });
        },
      });
      parts.push(h('div', { className: 'form' }, min, '–', max, apply));
    } else {
      const text = h('input', { type: 'text', placeholder: 'contains…' });
      const apply = h('button', {
        textContent: 'Filter',
        onclick: () => {
          closeMenu();
          setFilter({ column: c, kind: 'text', text: text.value });
        },
      });
      text.onkeydown = (e) => e.key === 'Enter' && apply.click();
      parts.push(h('div', { className: 'form' }, text, apply));
    }
    if (filters.some((f) => f.column === c)) parts.push(item('Remove Filter', () => send({ type: 'filter', filters: filters.filter((f) => f.column !== c) })));
    parts.push(
      h('div', { className: 'sep' }),
      item('Summary and Chart', () => showColumn(c)),
    );
    menu.replaceChildren(...parts);
    menu.hidden = false;
    menu.style.left = `${Math.min(at.x, window.innerWidth - 240)}px`;
    menu.style.top = `${at.y + 8}px`;
  }

  // composedPath: inside a shadow root (the notebook's renderer) the event's target outside it is the host.
  const onMouseDown = (e: Event) => {
    if (!menu.hidden && !e.composedPath().includes(menu)) closeMenu();
  };
  const onKeyDown = (event: Event) => {
    const e = event as KeyboardEvent;
    if (e.key === 'Escape') closeMenu();
    if ((e.ctrlKey || e.metaKey) && e.key === 'c' && !(e.composedPath()[0] instanceof HTMLInputElement)) {
      const text = grid.selectedText();
      if (text) {
        e.preventDefault();
        send({ type: 'copy', text });
      }
    }
  };
  document.addEventListener('mousedown', onMouseDown);
  keyTarget.addEventListener('keydown', onKeyDown);

  function showColumn(c: number): void {
    panelColumn = c;
    panel.hidden = false;
    const which = filters.length > 0 ? 'the filtered rows' : 'every row';
    panel.replaceChildren(h('h3', { textContent: `${columns[c].name} (${columns[c].type})` }), h('div', { className: 'note', textContent: `Summarizing ${which}…` }));
    // The chart after the summary: it is drawn from the summary's pass (one read of the file, not two).
    send({ type: 'summary', column: c });
  }

  /** Which rows a summary or chart describes: "199,746 of 1,000,000 rows (filtered)" or "all 1,000,000 rows". */
  function scopeText(scope: RowScope): string {
    const rows = (n: number) => `${fmt(n)} row${n === 1 ? '' : 's'}`;
    return scope.filtered ? `${fmt(scope.rows)} of ${rows(scope.of)} (filtered)` : `all ${rows(scope.of)}`;
  }

  function fmt(n: number | undefined): string {
    return n === undefined ? '' : Number.isInteger(n) ? n.toLocaleString('en-US') : Number(n.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 6 });
  }

  function showSummary(s: ColumnSummary): void {
    const c = columns.findIndex((col) => col.name === s.column);
    if (c !== panelColumn) return;
    const row = (k: string, v: string) => h('tr', {}, h('td', { textContent: k }), h('td', { textContent: v }));
    const date = (n: number | undefined) => (n === undefined ? '' : new Date(n).toISOString().replace('T00:00:00.000Z', ''));
    const show = s.type === 'datetime' ? date : fmt;
    const stats = h(
      'table',
      { className: 'stats' },
      row('count', fmt(s.count)),
      row('missing', fmt(s.missing)),
      row('distinct', `${s.distinctApproximate ? '≈ ' : ''}${fmt(s.distinct)}`),
    );
    if (s.min !== undefined) stats.append(row('min', show(s.min)), row('max', show(s.max)), ...(s.type === 'datetime' ? [] : [row('mean', fmt(s.mean))]));
    const scope = h('div', { className: `note scope${s.scope.filtered ? ' filtered' : ''}`, textContent: scopeText(s.scope).replace(/^a/, 'A') });
    const parts: HTMLElement[] = [h('h3', { textContent: `${s.column} (${s.type})` }), scope, stats];
    if (s.top.length > 0) {
      const top = h('table', { className: 'top', title: 'Click a value to filter by it' });
      for (const t of s.top) {
        const tr = row(t.value === '' ? '(empty)' : t.value, fmt(t.count));
        tr.onclick = () => setFilter({ column: c, kind: 'values', values: [t.value] });
        top.append(tr);
      }
      parts.push(h('div', { className: 'note', textContent: 'Top values (click to filter):' }), top);
    }
    const others = columns.map((col, i) => ({ col, i })).filter(({ i }) => numeric(i) && i !== c);
    if (numeric(c) && others.length > 0) {
      const y = h('select', {}, ...others.map(({ col, i }) => h('option', { value: String(i), textContent: col.name })));
      parts.push(
        h(
          'div',
          { className: 'controls' },
          'Scatter against',
          y,
          h('button', { textContent: 'Scatter', onclick: () => send({ type: 'chart', kind: 'scatter', x: c, y: Number(y.value) }) }),
        ),
      );
    }
    parts.push(h('div', { className: 'chart' }), h('div', { className: 'note chartNote' }));
    const chart = panel.querySelector('.chart');
    panel.replaceChildren(...parts);
    if (chart?.firstChild) panel.querySelector('.chart')?.replaceWith(chart);
  }

  function showChart(chart: Extract<HostMessage, { type: 'chart' }>['chart']): void {
    let target = panel.querySelector('.chart') as HTMLElement | null;
    if (!target) {
      target = h('div', { className: 'chart' });
      panel.append(target, h('div', { className: 'note chartNote' }));
    }
    plot?.destroy();
    const dates = chart.kind === 'histogram' && columns.find((c) => c.name === chart.columns[0])?.type === 'datetime';
    plot = drawChart(target, chart, Math.max(200, panel.clientWidth - 20), dates);
    const note = panel.querySelector('.chartNote');
    const what =
      chart.kind === 'histogram'
        ? `Histogram of ${chart.columns[0]}`
        : chart.kind === 'bar'
          ? `Most frequent values of ${chart.columns[0]}`
          : `${chart.columns[1]} against ${chart.columns[0]}`;
    const sample = chart.sampledFrom ? `, a sample of ${fmt(chart.sampledFrom)} of them` : '';
    if (note) note.textContent = `${what}: ${scopeText(chart.scope)}${sample}.`;
  }

  function receive(m: HostMessage): void {
    switch (m.type) {
      case 'meta':
        columns = m.columns;
        title.textContent = m.title;
        title.title = m.source;
        count.textContent = countText(m.rowCount);
        actions.replaceChildren(
          ...m.actions.map((a) => h('button', { textContent: ACTION_LABELS[a], className: a === 'push' ? 'primary' : '', onclick: () => send({ type: 'action', action: a }) })),
        );
        app.replaceChildren(toolbar, h('div', { className: 'main' }, grid.root, panel), menu);
        app.removeAttribute('aria-busy');
        grid.setColumns(columns);
        grid.seed(m.rows);
        grid.setRowCount(m.rowCount);
        return;
      case 'count':
        count.textContent = countText(m.rowCount);
        grid.setRowCount(m.rowCount);
        return;
      case 'rows':
        grid.receive(m.start, m.rows, m.tag);
        return;
      case 'view': {
        const refilter = JSON.stringify(filters) !== JSON.stringify(m.filters);
        sort = m.sort;
        filters = m.filters;
        count.textContent = countText(m.rowCount);
        filterInfo.hidden = filters.length === 0;
        filterInfo.textContent = `${filters.length} filter${filters.length === 1 ? '' : 's'} ✕`;
        grid.setSort(sort);
        grid.reset(m.rowCount);
        // The summary and chart on show describe the rows the filters keep: again for the new filters.
        if (refilter && !panel.hidden && panelColumn !== undefined) showColumn(panelColumn);
        return;
      }
      case 'summary':
        showSummary(m.summary);
        if (columns[panelColumn ?? -1]?.name === m.summary.column) send({ type: 'chart', kind: 'distribution', column: panelColumn as number });
        return;
      case 'chart':
        showChart(m.chart);
        return;
      case 'progress':
        progress.classList.toggle('active', !m.done);
        progressText.textContent = m.task;
        bar.style.width = `${Math.round((m.fraction ?? 0) * 100)}%`;
        return;
      case 'error':
        app.append(h('div', { className: 'error', textContent: m.message }));
        if (columns.length === 0) app.replaceChildren(h('div', { className: 'error', textContent: m.message }));
        return;
    }
  }

  return {
    receive,
    dispose: () => {
      document.removeEventListener('mousedown', onMouseDown);
      keyTarget.removeEventListener('keydown', onKeyDown);
      plot?.destroy();
    },
  };
}
