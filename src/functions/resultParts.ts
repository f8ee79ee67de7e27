// What a function's result becomes when shown: each dataframe output a CSV document, everything else
// one JSON document (dataframes described in it, not repeated), and a one-line summary for the
// notification and the Runs view. Pure: no vscode here.
import type { FuncInfo } from '../api/catalogTypes';
import { type ScriptSource, scriptRunLabel } from '../platform/scripts/runs';
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

/** How a run's result is shown: a script's text run (▶ Run on Datagrok, its source known) under the header's name with each value labelled by its output; any other function under its name, with its signature's outputs. */
export async function shownRun(
  catalog: { funcOrLastKnown(idOrName: string): Promise<FuncInfo> },
  functionName: string,
  script: ScriptSource | undefined,
): Promise<{ name: string; outputNames?: string[]; labelled: boolean }> {
  if (script) {
    const { name, outputs } = scriptRunLabel(script);
    return { name, outputNames: outputs, labelled: true };
  }
  return { name: functionName, outputNames: await outputNamesOf(catalog, functionName), labelled: false };
}

/** A run's result documents and summary, shown as {@link shownRun} says. */
export async function runResultView(
  catalog: { funcOrLastKnown(idOrName: string): Promise<FuncInfo> },
  functionName: string,
  script: ScriptSource | undefined,
  result: unknown,
): Promise<ResultView> {
  const shown = await shownRun(catalog, functionName, script);
  return resultView(shown.name, result, shown.outputNames, { labelled: shown.labelled });
}

/**
 * A result's documents and summary. `undefined` (no value) becomes `null` in its document. Several outputs
 * are named after the signature's outputs (`outputNames`, when there is one per output), else `output 1…`.
 * `labelled` (a script's run, whose outputs its header names): each value is labelled with its output's
 * name, one output too — `c = 25` in the summary, `{"c": 25}` in the document, `<output>.csv` for a table.
 */
export function resultView(functionName: string, result: unknown, outputNames?: readonly string[], options: { labelled?: boolean } = {}): ResultView {
  // A script's one output is one value, a list too.
  const single = options.labelled === true && outputNames?.length === 1;
  const several = !single && Array.isArray(result);
  const shown = several ? outputsOf(result) : [result];
  const labelled = options.labelled === true && outputNames !== undefined && outputNames.length === shown.length;
  const named = (several || labelled) && outputNames !== undefined && outputNames.length === shown.length && new Set(outputNames).size === outputNames.length;
  const nameOf = (i: number) => (named ? (outputNames as readonly string[])[i] : `output ${i + 1}`);
  const csv = shown.map((o) => looksLikeCsv(o));
  const described = shown.map((o, i) => (csv[i] ? `<${describeDataframe(o as string)}>` : o));
  const summaryValue = several ? described : described[0];
  const oneLine = summaryValue === undefined ? 'no value' : JSON.stringify(summaryValue);

  const parts: ResultPart[] = [];
  const frames = shown.filter((_, i) => csv[i]) as string[];
  const frameOutputs = shown.map((_, i) => i).filter((i) => csv[i]);
  frames.forEach((text, i) => {
    const name = named ? nameOf(frameOutputs[i]).replace(/[/\\]/g, '_') : `result${i === 0 ? '' : ` ${i + 1}`}`;
    parts.push({ name: `${functionName} — ${name}.csv`, language: 'csv', text });
  });
  const allFrames = shown.length > 0 && frames.length === shown.length;
  if (!allFrames) {
    const value = several || (labelled && named) ? Object.fromEntries(described.map((o, i) => [nameOf(i), o ?? null])) : (summaryValue ?? null);
    parts.unshift({ name: `${functionName} — result`, language: 'json', text: `${JSON.stringify(value, null, 2)}\n` });
  }
  const plain = (d: unknown) => (typeof d === 'string' && /^<dataframe: .*>$/.test(d) ? d.slice(1, -1) : d === undefined ? 'no value' : JSON.stringify(d));
  let summary: string;
  if (labelled && named) summary = described.map((d, i) => `${nameOf(i)} = ${plain(d)}`).join(', ');
  else if (allFrames) summary = `${several ? `${shown.length} outputs: ` : ''}${described.map((d) => String(d).replace(/^<|>$/g, '')).join('; ')}`;
  else summary = `${several ? `${shown.length} outputs: ` : ''}${oneLine}`;
  return { parts, summary: cut(summary), oneLine };
}
