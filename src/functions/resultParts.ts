// What a function's result becomes when shown: each dataframe output a CSV document, everything else
// one JSON document (dataframes described in it, not repeated), and a one-line summary for the
// notification and the Runs view. Pure: no vscode here.
import type { FuncInfo } from '../api/catalogTypes';
import { csvShape, looksLikeCsv, outputsOf } from './outputs';

export interface ResultPart {
  /** The document's name: `Demo:Add — result`, `Demo:Filter — result.csv` (`result 2.csv`, … for more). */
  name: string;
  language: 'json' | 'csv';
  text: string;
}

export interface ResultView {
  parts: ResultPart[];
  /** One line: `5`, `dataframe: 12 rows × 3 columns`, `{"a":1,…}` cut short. */
  summary: string;
  /** The whole result on one line (for the log; may be long). */
  oneLine: string;
}

/** Summaries longer than this are cut short (with "…"). */
export const SUMMARY_LENGTH = 200;

export function describeDataframe(csv: string): string {
  const { rows, columns } = csvShape(csv);
  return `dataframe: ${rows.toLocaleString('en-US')} row${rows === 1 ? '' : 's'} × ${columns} column${columns === 1 ? '' : 's'}`;
}

function cut(text: string, length = SUMMARY_LENGTH): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** The names of a function's outputs, from its signature (the last one known when offline); undefined when unknown. */
export async function outputNamesOf(catalog: { funcOrLastKnown(idOrName: string): Promise<FuncInfo> }, functionName: string): Promise<string[] | undefined> {
  try {
    return ((await catalog.funcOrLastKnown(functionName)).params ?? []).filter((p) => !p.isInput).map((p) => p.name);
  } catch {
    return undefined;
  }
}

/**
 * A result's documents and summary. `undefined` (no value) becomes `null` in its document. Several outputs
 * are named after the signature's outputs (`outputNames`, when there is one per output), else `output 1…`.
 */
export function resultView(functionName: string, result: unknown, outputNames?: readonly string[]): ResultView {
  const several = Array.isArray(result);
  const outputs = outputsOf(result);
  const named = several && outputNames !== undefined && outputNames.length === outputs.length && new Set(outputNames).size === outputNames.length;
  const nameOf = (i: number) => (named ? (outputNames as readonly string[])[i] : `output ${i + 1}`);
  const csv = outputs.map((o) => looksLikeCsv(o));
  const described = outputs.map((o, i) => (csv[i] ? `<${describeDataframe(o as string)}>` : o));
  const summaryValue = several ? described : described[0];
  const oneLine = summaryValue === undefined ? 'no value' : JSON.stringify(summaryValue);

  const parts: ResultPart[] = [];
  const frames = outputs.filter((_, i) => csv[i]) as string[];
  const frameOutputs = outputs.map((_, i) => i).filter((i) => csv[i]);
  frames.forEach((text, i) => {
    const name = named ? nameOf(frameOutputs[i]).replace(/[/\\]/g, '_') : `result${i === 0 ? '' : ` ${i + 1}`}`;
    parts.push({ name: `${functionName} — ${name}.csv`, language: 'csv', text });
  });
  const allFrames = outputs.length > 0 && frames.length === outputs.length;
  if (!allFrames) {
    const value = several ? Object.fromEntries(described.map((o, i) => [nameOf(i), o])) : (summaryValue ?? null);
    parts.unshift({ name: `${functionName} — result`, language: 'json', text: `${JSON.stringify(value, null, 2)}\n` });
  }
  const summary = allFrames
    ? `${several ? `${outputs.length} outputs: ` : ''}${described.map((d) => String(d).replace(/^<|>$/g, '')).join('; ')}`
    : `${several ? `${outputs.length} outputs: ` : ''}${oneLine}`;
  return { parts, summary: cut(summary), oneLine };
}
