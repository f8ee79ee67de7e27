// Tables summarised for a model: the row and column counts, the column names and the first rows as CSV,
// never the whole table.
import { papaparse } from '../../platform/lazyModules';

export interface CsvSummary {
  rows: number;
  columns: string[];
  /** The header and the first rows, as CSV text. */
  firstRows: string;
  /** True when the text was cut before its end (rows is then a lower bound). */
  truncated?: boolean;
}

export function summarizeCsv(csv: string, firstRows = 20, truncated = false): CsvSummary {
  const pp = papaparse();
  const parsed = pp.parse<string[]>(csv, { skipEmptyLines: true, delimitersToGuess: [',', '\t', ';', '|'] });
  let data = parsed.data;
  // A cut text may end mid-row.
  if (truncated && data.length > 1) data = data.slice(0, -1);
  const header = data[0] ?? [];
  const summary: CsvSummary = {
    rows: Math.max(0, data.length - 1),
    columns: header,
    firstRows: pp.unparse(data.slice(0, firstRows + 1), { newline: '\n' }),
  };
  if (truncated) summary.truncated = true;
  return summary;
}
