// The rows the grid shows, read from the file through the row index (rowIndex.ts): a block of STRIDE rows
// is one short read, parsed by papaparse (what the grid shows is the file's own text); the last
// CACHED_BLOCKS complete blocks used are kept. Pure Node: no vscode.
import type * as fs from 'node:fs';
import { papaparse } from '../lazyModules';
import { readRange, type RowIndex, STRIDE } from './rowIndex';

const CACHED_BLOCKS = 256;

export function parseCsv(text: string): string[][] {
  return papaparse().parse<string[]>(text, { header: false, skipEmptyLines: false }).data;
}

export class RowReader {
  private blocks = new Map<number, string[][]>();

  constructor(
    private readonly handle: fs.promises.FileHandle,
    private readonly index: RowIndex,
  ) {}

  /** Rows [start, start + count) in file order (waits until the index knows them, or the file ends). */
  async rows(start: number, count: number): Promise<string[][]> {
    await this.index.whenRows(start + count);
    const wanted = Math.max(0, Math.min(count, this.index.rows - start));
    const out: string[][] = [];
    for (let k = Math.floor(start / STRIDE); out.length < wanted && k * STRIDE < this.index.rows; k++) {
      const block = await this.block(k);
      const from = k * STRIDE < start ? start - k * STRIDE : 0;
      out.push(...block.slice(from, from + wanted - out.length));
    }
    return out;
  }

  /** The rows of these ids (in this order). */
  async rowsById(ids: Uint32Array): Promise<string[][]> {
    const needed = [...new Set(Array.from(ids, (id) => Math.floor(id / STRIDE)))].sort((a, b) => a - b);
    const blocks = new Map<number, string[][]>();
    for (const k of needed) blocks.set(k, await this.block(k));
    return Array.from(ids, (id) => blocks.get(Math.floor(id / STRIDE))?.[id % STRIDE] ?? []);
  }

  /** The header's fields (a BOM dropped). */
  async header(): Promise<string[]> {
    const header = parseCsv((await readRange(this.handle, 0, this.index.headerEnd)).toString('utf8'))[0] ?? [];
    if (header[0]?.startsWith('\ufeff')) header[0] = header[0].slice(1);
    return header;
  }

  /** Rows [k * STRIDE, (k + 1) * STRIDE), parsed; complete blocks are kept (the last CACHED_BLOCKS used). */
  private async block(k: number): Promise<string[][]> {
    const hit = this.blocks.get(k);
    if (hit) {
      this.blocks.delete(k);
      this.blocks.set(k, hit);
      return hit;
    }
    const first = k * STRIDE;
    const { start, end } = this.index.span(first, STRIDE);
    const rows = parseCsv((await readRange(this.handle, start, end)).toString('utf8')).slice(0, Math.min(STRIDE, this.index.rows - first));
    if (first + STRIDE <= this.index.rows) {
      this.blocks.set(k, rows);
      if (this.blocks.size > CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
    }
    return rows;
  }
}
