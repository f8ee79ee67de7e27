// Picks some fields out of CSV rows without parsing the others: a scan of the bytes that finds commas,
// quotes and newlines with Buffer.indexOf (memchr). A sort, a filter or a summary needs one or two
// columns of every row; papaparse makes every field of every row a string first, which measured 9 times
// slower (1.2 s against 0.13 s for the same 5.5 MB, 65,536 rows, on this machine under load). Quoted
// fields follow RFC 4180 (`""` is a quote; commas and newlines inside quotes are data). Pure.

const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * Visits the fields `wanted` (column numbers, ascending) of each row of `buffer`, which starts at a row's
 * start; stops after `maxRows` rows. A missing field (a short row) is visited as ''. Returns the rows read.
 */
export function scanFields(buffer: Buffer, wanted: readonly number[], maxRows: number, visit: (row: number, wantedIndex: number, value: string) => void): number {
  const len = buffer.length;
  const last = wanted[wanted.length - 1];
  let nextQuote = buffer.indexOf(QUOTE, 0);
  /** Where the row that goes on at `from` ends (its newline, or the end): newlines inside quotes do not count. */
  const rowEndFrom = (from: number): number => {
    let at = from;
    for (;;) {
      const nl = buffer.indexOf(NEWLINE, at);
      if (nextQuote !== -1 && nextQuote < at) nextQuote = buffer.indexOf(QUOTE, at);
      if (nextQuote === -1 || (nl !== -1 && nl < nextQuote)) return nl === -1 ? len : nl;
      const close = buffer.indexOf(QUOTE, nextQuote + 1);
      if (close === -1) return len;
      at = close + 1;
    }
  };
  let pos = 0;
  let row = 0;
  while (pos < len && row < maxRows) {
    let column = 0;
    let w = 0;
    let start = pos;
    let rowEnd: number;
    let stop = -1;
    for (;;) {
      if (buffer[start] === QUOTE) {
        let q = start + 1;
        for (;;) {
          q = buffer.indexOf(QUOTE, q);
          if (q === -1) {
            q = len;
            break;
          }
          if (buffer[q + 1] === QUOTE) {
            q += 2;
            continue;
          }
          break;
        }
        if (column === wanted[w]) visit(row, w++, buffer.toString('utf8', start + 1, q).replaceAll('""', '"'));
        const after = q + 1;
        if (buffer[after] === COMMA && column < last) {
          column++;
          start = after + 1;
          continue;
        }
        rowEnd = after >= len ? len : rowEndFrom(after);
        break;
      }
      if (stop < start) stop = rowEndFrom(start);
      let comma = buffer.indexOf(COMMA, start);
      if (comma > stop) comma = -1;
      if (column === wanted[w]) {
        const end = comma !== -1 ? comma : stop > start && buffer[stop - 1] === RETURN ? stop - 1 : stop;
        visit(row, w++, buffer.toString('utf8', start, end));
      }
      if (comma !== -1 && column < last) {
        column++;
        start = comma + 1;
        continue;
      }
      rowEnd = stop;
      break;
    }
    while (w < wanted.length) visit(row, w++, '');
    pos = rowEnd + 1;
    row++;
  }
  return row;
}
