// The data view's grid: only the rows on screen are in the page, fetched from the extension in blocks
// (the screen plus a margin), kept while near. Browsers cap an element's height (about 33 million pixels
// in Chromium), so above MAX_HEIGHT the scroll position maps to a row proportionally rather than by pixels.
// Column widths fit the content's typical width (the 90th percentile of the first rows' texts, measured in
// the grid's font, within MIN_WIDTH..MAX_WIDTH), set once when the first rows arrive; a column the user
// resized keeps its width.
import type { ColumnInfo, RowCount } from '../../platform/dataView/protocol';

export const ROW_HEIGHT = 22;
const HEADER_HEIGHT = 40;
const MAX_HEIGHT = 8_000_000;
const BLOCK = 200;
const MARGIN = 100;
/** Blocks kept (of BLOCK rows each); the farthest from the screen go first. */
const KEPT_BLOCKS = 40;
const ROWNUM_WIDTH = 64;
const MIN_WIDTH = 56;
const MAX_WIDTH = 360;
/** A cell's padding and border (CSS: padding 0 6px, border-right 1px), and a little air. */
const CELL_EXTRA = 12 + 1 + 4;
const measurer = document.createElement('canvas').getContext('2d');

export interface GridHost {
  requestRows(start: number, count: number, tag: number): void;
  onHeaderClick(column: number, at: { x: number; y: number }): void;
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

export class Grid {
  readonly root = el('div', 'grid');
  private readonly canvas = el('div', 'canvas');
  private readonly header = el('div', 'header');
  private readonly body = el('div', 'rows');
  private readonly filler = el('div');
  private columns: ColumnInfo[] = [];
  widths: number[] = [];
  private rowCount: RowCount = { rows: 0, exact: true };
  private blocks = new Map<number, string[][]>();
  private requested = new Set<number>();
  private tag = 0;
  private sortMark: { column: number; descending?: boolean } | undefined;
  private fitted = false;
  private readonly resized = new Set<number>();
  /** The selected cells: rows and columns, inclusive (view rows). */
  selection: { r0: number; c0: number; r1: number; c1: number } | undefined;

  constructor(private readonly host: GridHost) {
    this.root.tabIndex = 0;
    this.canvas.append(this.header, this.body, this.filler);
    this.root.append(this.canvas);
    this.root.addEventListener('scroll', () => this.render());
    new ResizeObserver(() => this.render()).observe(this.root);
    this.body.addEventListener('mousedown', (e) => this.select(e));
  }

  setColumns(columns: ColumnInfo[]): void {
    this.columns = columns;
    this.fitted = false;
    this.resized.clear();
    this.widths = columns.map((c) => Math.min(280, Math.max(80, c.name.length * 8 + 24)));
    this.renderHeader();
  }

  /** Each column as wide as its typical content in `rows` (and its header), within MIN_WIDTH..MAX_WIDTH. */
  private fit(rows: string[][]): void {
    this.fitted = true;
    const style = getComputedStyle(this.root);
    const font = `${style.fontSize} ${style.fontFamily}`;
    const width = (text: string, weight = '') => {
      if (!measurer) return text.length * 8;
      measurer.font = `${weight}${font}`;
      return measurer.measureText(text).width;
    };
    this.widths = this.columns.map((col, c) => {
      if (this.resized.has(c)) return this.widths[c];
      const texts = rows.map((r) => width(r[c] ?? '')).sort((a, b) => a - b);
      const typical = texts.length > 0 ? texts[Math.min(texts.length - 1, Math.floor(texts.length * 0.9))] : 0;
      const header = Math.max(width(`${col.name} ↓`, '600 '), width(col.type)); // room for a sort mark
      return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.max(typical, header) + CELL_EXTRA)));
    });
    this.renderHeader();
  }

  setSort(sort: { column: number; descending?: boolean } | undefined): void {
    this.sortMark = sort;
    this.renderHeader();
  }

  setRowCount(rowCount: RowCount): void {
    this.rowCount = rowCount;
    this.render();
  }

  /** A new view (sorted or filtered): forget the rows, back to the top. */
  reset(rowCount: RowCount): void {
    this.tag++;
    this.blocks.clear();
    this.requested.clear();
    this.selection = undefined;
    this.rowCount = rowCount;
    this.root.scrollTop = 0;
    this.render();
  }

  /** The first rows, sent with the columns (the first screen asks for nothing). */
  seed(rows: string[][]): void {
    if (rows.length > 0) this.receive(0, rows, this.tag);
  }

  receive(start: number, rows: string[][], tag: number | undefined): void {
    if (tag !== this.tag || start % BLOCK !== 0) return;
    this.blocks.set(start / BLOCK, rows);
    if (!this.fitted && rows.length > 0) this.fit(rows);
    this.render();
  }

  row(r: number): string[] | undefined {
    return this.blocks.get(Math.floor(r / BLOCK))?.[r % BLOCK];
  }

  private renderHeader(): void {
    this.header.replaceChildren(this.headerCell(-1));
    for (let c = 0; c < this.columns.length; c++) this.header.append(this.headerCell(c));
    this.canvas.style.width = `${ROWNUM_WIDTH + this.widths.reduce((a, b) => a + b, 0)}px`;
    this.render();
  }

  private headerCell(c: number): HTMLElement {
    if (c < 0) {
      const cell = el('div', 'hcell rownum', '#');
      cell.style.width = `${ROWNUM_WIDTH}px`;
      return cell;
    }
    const col = this.columns[c];
    const cell = el('div', 'hcell');
    cell.style.width = `${this.widths[c]}px`;
    cell.title = `${col.name} (${col.type}): click for sort, filter, summary and charts`;
    const mark = this.sortMark?.column === c ? (this.sortMark.descending ? ' ↓' : ' ↑') : '';
    cell.append(el('span', 'name', col.name + mark), el('span', 'type', col.type));
    const resize = el('div', 'resize');
    resize.addEventListener('mousedown', (e) => this.resize(e, c));
    resize.addEventListener('click', (e) => e.stopPropagation());
    cell.append(resize);
    cell.addEventListener('click', (e) => this.host.onHeaderClick(c, { x: e.clientX, y: e.clientY }));
    return cell;
  }

  private resize(start: MouseEvent, c: number): void {
    start.preventDefault();
    start.stopPropagation();
    const from = this.widths[c];
    this.resized.add(c);
    const move = (e: MouseEvent) => {
      this.widths[c] = Math.max(40, from + e.clientX - start.clientX);
      this.renderHeader();
    };
    const up = () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  }

  /** The first row on screen and how many fit. */
  private window(): { first: number; visible: number } {
    const visible = Math.max(1, Math.floor((this.root.clientHeight - HEADER_HEIGHT) / ROW_HEIGHT));
    const maxScroll = this.root.scrollHeight - this.root.clientHeight;
    const fraction = maxScroll > 0 ? Math.min(1, this.root.scrollTop / maxScroll) : 0;
    return { first: Math.round(fraction * Math.max(0, this.rowCount.rows - visible)), visible };
  }

  render(): void {
    const total = this.rowCount.rows;
    const viewport = Math.max(0, this.root.clientHeight - HEADER_HEIGHT);
    const height = Math.min(MAX_HEIGHT, total * ROW_HEIGHT);
    this.body.style.height = `${viewport}px`;
    this.filler.style.height = `${Math.max(0, height - viewport)}px`;
    const { first, visible } = this.window();
    this.fetch(first, visible);
    const rows: HTMLElement[] = [];
    for (let r = first; r < Math.min(total, first + visible + 1); r++) {
      const row = el('div', 'row');
      const values = this.row(r);
      const num = el('div', 'cell rownum', (r + 1).toLocaleString('en-US'));
      num.style.width = `${ROWNUM_WIDTH}px`;
      row.append(num);
      this.columns.forEach((col, c) => {
        const v = values?.[c];
        const missing = values !== undefined && (v === undefined || v === '');
        const numeric = col.type === 'int' || col.type === 'double';
        const cell = el(
          'div',
          `cell${numeric ? ' num' : ''}${missing ? ' missing' : ''}${this.isSelected(r, c) ? ' selected' : ''}`,
          values ? (missing ? '·' : (v as string)) : '…',
        );
        cell.style.width = `${this.widths[c]}px`;
        cell.dataset.r = String(r);
        cell.dataset.c = String(c);
        if (v && v.length > 20) cell.title = v;
        row.append(cell);
      });
      rows.push(row);
    }
    this.body.replaceChildren(...rows);
  }

  private fetch(first: number, visible: number): void {
    const lo = Math.floor(Math.max(0, first - MARGIN) / BLOCK);
    const hi = Math.floor(Math.min(Math.max(0, this.rowCount.rows - 1), first + visible + MARGIN) / BLOCK);
    for (let b = lo; b <= hi && this.rowCount.rows > 0; b++) {
      if (this.blocks.has(b) && (this.blocks.get(b)?.length === BLOCK || this.rowCount.exact)) continue;
      if (this.requested.has(b)) continue;
      this.requested.add(b);
      this.host.requestRows(b * BLOCK, BLOCK, this.tag);
    }
    // Forget blocks far from the screen.
    if (this.blocks.size > KEPT_BLOCKS) {
      const far = [...this.blocks.keys()].sort((a, b) => Math.abs(b - lo) - Math.abs(a - lo)).slice(0, this.blocks.size - KEPT_BLOCKS);
      for (const b of far) {
        this.blocks.delete(b);
        this.requested.delete(b);
      }
    }
  }

  /** A block the extension answered with fewer rows than asked (the file still being read) may be asked again. */
  retry(start: number): void {
    this.requested.delete(start / BLOCK);
  }

  private isSelected(r: number, c: number): boolean {
    const s = this.selection;
    return !!s && r >= Math.min(s.r0, s.r1) && r <= Math.max(s.r0, s.r1) && c >= Math.min(s.c0, s.c1) && c <= Math.max(s.c0, s.c1);
  }

  private select(e: MouseEvent): void {
    const cell = (e.target as HTMLElement).closest('.cell') as HTMLElement | null;
    if (!cell?.dataset.c) return;
    const r = Number(cell.dataset.r);
    const c = Number(cell.dataset.c);
    this.selection = e.shiftKey && this.selection ? { ...this.selection, r1: r, c1: c } : { r0: r, c0: c, r1: r, c1: c };
    this.render();
  }

  /** The selected cells as tab-separated text with the column names first (only rows on hand). */
  selectedText(): string | undefined {
    const s = this.selection;
    if (!s) return undefined;
    const [c0, c1] = [Math.min(s.c0, s.c1), Math.max(s.c0, s.c1)];
    const [r0, r1] = [Math.min(s.r0, s.r1), Math.max(s.r0, s.r1)];
    const clean = (v: string | undefined) => (v ?? '').replace(/[\t\r\n]+/g, ' ');
    const lines = [
      this.columns
        .slice(c0, c1 + 1)
        .map((c) => clean(c.name))
        .join('\t'),
    ];
    for (let r = r0; r <= r1; r++)
      lines.push(
        (this.row(r) ?? [])
          .slice(c0, c1 + 1)
          .map(clean)
          .join('\t'),
      );
    return `${lines.join('\n')}\n`;
  }
}
