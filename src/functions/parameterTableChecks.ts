// The checks of a parameter file that need the server: a dataframe input naming a table the server does
// not have, a column input `<table>/<column>` whose table or column is not there; and the one that does
// not: the placeholder "table/column" a new file starts with. Pure: the server is asked through
// `columnsOf` (cached by the platform); positions are offsets into the text.
import type { FuncInfo } from '../api/types';
import type { TableColumnsAnswer } from '../platform/tables/columns';
import { inputsOf, placeholderOf } from '../platform/functions/signature';
import { sameTableName } from '../platform/tables/names';
import { type ParameterProblem, propertiesOf, rootOf } from './parameterChecks';

/** At most this many distinct tables are checked per file (each is one request, then cached). */
const TABLES_CHECKED = 10;

interface TableReference {
  input: string;
  table: string;
  column?: string;
  offset: number;
  length: number;
}

/** The dataframe and column values of the text that name a table (placeholders and `$csv` objects excluded). */
export function tableReferences(text: string, func: FuncInfo): TableReference[] {
  const root = rootOf(text);
  if (!root) return [];
  const inputs = new Map(inputsOf(func).map((p) => [p.name, p]));
  const refs: TableReference[] = [];
  for (const { key, value } of propertiesOf(root)) {
    const p = inputs.get(String(key.value));
    if (!p || value?.type !== 'string' || typeof value.value !== 'string' || value.value.trim() === '') continue;
    const type = p.propertyType.toLowerCase();
    const at = { input: p.name, offset: value.offset, length: value.length };
    if (type === 'dataframe') refs.push({ ...at, table: value.value.trim() });
    if (type === 'column' && value.value !== placeholderOf(p)) {
      const slash = value.value.lastIndexOf('/');
      if (slash > 0 && slash < value.value.length - 1) refs.push({ ...at, table: value.value.slice(0, slash), column: value.value.slice(slash + 1) });
    }
  }
  return refs;
}

/** A column input still holding the placeholder "table/column" of a new file. */
export function placeholderProblems(text: string, func: FuncInfo): ParameterProblem[] {
  const root = rootOf(text);
  if (!root) return [];
  const columns = new Map(
    inputsOf(func)
      .filter((p) => p.propertyType.toLowerCase() === 'column')
      .map((p) => [p.name, p]),
  );
  const problems: ParameterProblem[] = [];
  for (const { key, value } of propertiesOf(root)) {
    const p = columns.get(String(key.value));
    if (p && value?.type === 'string' && value.value === placeholderOf(p)) {
      problems.push({
        code: 'placeholder',
        message: `"${p.name}" still holds the placeholder "${String(value.value)}": write <table>/<column> (completion offers the tables, then their columns).`,
        offset: value.offset,
        length: value.length,
        input: p.name,
      });
    }
  }
  return problems;
}

/**
 * What the server says is not there. A table it cannot tell about now (offline, signed out: `columnsOf`
 * rejects) is not reported.
 */
export async function missingTableProblems(text: string, func: FuncInfo, host: string, columnsOf: (table: string) => Promise<TableColumnsAnswer>): Promise<ParameterProblem[]> {
  const refs = tableReferences(text, func);
  const answers = new Map<string, TableColumnsAnswer | undefined>();
  for (const table of new Set(refs.map((r) => r.table))) {
    if (answers.size >= TABLES_CHECKED) break;
    answers.set(table, await columnsOf(table).catch(() => undefined));
  }
  const problems: ParameterProblem[] = [];
  for (const r of refs) {
    const answer = answers.get(r.table);
    if (answer === undefined) continue;
    const at = { offset: r.offset, length: r.length, input: r.input };
    if (answer === 'missing') {
      problems.push({
        code: 'missingTable',
        message: `${host} has no table "${r.table}" (an ID, or a name such as Project:table): pick one with completion, or push the CSV first.`,
        ...at,
      });
    } else if (r.column !== undefined && !answer.columns.includes(r.column)) {
      const near = answer.columns.find((c) => c.toLowerCase() === r.column!.toLowerCase());
      const listed = answer.columns.slice(0, 12).join(', ') + (answer.columns.length > 12 ? ', …' : '');
      problems.push({
        code: 'missingColumn',
        message: `The table "${r.table}" has no column "${r.column}"${near ? `; did you mean "${near}"?` : ''} (its columns: ${listed || 'none'}).`,
        ...at,
      });
    }
  }
  return problems;
}

/** The table a "not found" message names ("Table Demo:nope not found"), or undefined. */
export function missingTableOf(message: string): string | undefined {
  return /\btable ["“]?([^"”\s]+?)["”]? (?:was )?not found/i.exec(message)?.[1];
}

/**
 * The offset of the string value (inside its quotes) that names `table` as a table or `<table>/<column>`
 * (with or without the owner's part: the server may name `Sales:q1` as `Admin:Sales:q1`).
 */
export function valueNaming(text: string, table: string): number | undefined {
  const root = rootOf(text);
  if (!root) return undefined;
  for (const { value } of propertiesOf(root)) {
    if (value?.type !== 'string' || typeof value.value !== 'string') continue;
    const slash = value.value.lastIndexOf('/');
    const named = [value.value, ...(slash > 0 ? [value.value.slice(0, slash)] : [])];
    if (named.some((v) => v.trim() !== '' && sameTableName(v, table))) return value.offset + 1;
  }
  return undefined;
}
