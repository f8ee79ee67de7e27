// What the notebook's cells make and take as written (before, or without, running them), for completion,
// hover and checks as the user types: a script or query cell makes its header's outputs, a call cell its
// function's outputs (the first named by `name =`). What the cells made when they ran adds the shapes.
// No vscode.
import type { FuncParam } from '../../api/types';
import { jsoncParser } from '../lazyModules';
import { parseScriptHeader, type ScriptHeader } from '../scripts/header';
import { CALL_LANGUAGE, type CallCell, cellKind, parseCallCell } from './cells';
import { PREFIX } from './scriptCell';
import type { NotebookVariable } from './variables';

export interface CellText {
  language: string;
  text: string;
}

/** A variable as known where a cell is: from the cells above as written, with its shape once made. */
export interface KnownVariable {
  name: string;
  /** dataframe, int, double, string, dynamic… */
  type: string;
  /** The cell that makes it (0-based). */
  cell: number;
  rows?: number;
  columns?: number;
  value?: unknown;
  /** Whether it was made by a run (else only declared by the text). */
  made: boolean;
}

/** The declared outputs of a function (undefined while not known). */
export type OutputsOf = (functionName: string) => readonly FuncParam[] | undefined;

/** A script or query cell's header (undefined for other cells, or a text without one). */
export function cellHeader(cell: CellText): ScriptHeader | undefined {
  const prefix = PREFIX[cell.language];
  return prefix ? parseScriptHeader(cell.text, prefix) : undefined;
}

/** The call a call cell makes: its `Pkg:Func(…)` text or its parameter object; undefined when it cannot be read. */
export function cellCall(cell: CellText): CallCell | undefined {
  if (cellKind(cell.language) !== 'call') return undefined;
  try {
    if (cell.language === CALL_LANGUAGE) return parseCallCell(cell.text);
    const object = jsoncParser().parse(cell.text, [], { allowTrailingComma: true, disallowComments: false }) as Record<string, unknown> | undefined;
    const name = object && typeof object === 'object' ? object.$function : undefined;
    return typeof name === 'string' ? { function: name, args: {} } : undefined;
  } catch {
    return undefined;
  }
}

/** What a cell makes as written: its outputs' names and types (a call's, once its function is known). */
export function declaredOutputs(cell: CellText, outputsOf: OutputsOf): { name: string; type: string }[] {
  const header = cellHeader(cell);
  if (header) return header.outputs.filter((o) => o.name).map((o) => ({ name: o.name, type: o.baseType.toLowerCase() }));
  const call = cellCall(cell);
  if (!call) return [];
  const outputs = (outputsOf(call.function) ?? []).map((p) => ({ name: p.name, type: p.propertyType.toLowerCase() }));
  // As a run names them (src/platform/notebook/runCell.ts): `name =` names the first output.
  if (call.assignTo) return [{ name: call.assignTo, type: outputs[0]?.type ?? 'dynamic' }, ...outputs.slice(1)];
  return outputs;
}

/**
 * The variables known at cell `index`: `above`, what the cells above make (the last of them for a name),
 * with the shape of what they made when they ran (`made`: the notebook's variables); `below`, the first
 * cell below that makes a name no cell above makes. `declared`: each cell's `declaredOutputs`.
 */
export function variablesAt(
  declared: readonly (readonly { name: string; type: string }[])[],
  index: number,
  made: readonly NotebookVariable[],
): { above: Map<string, KnownVariable>; below: Map<string, number> } {
  const above = new Map<string, KnownVariable>();
  for (let i = 0; i < index && i < declared.length; i++) for (const o of declared[i]) above.set(o.name, { name: o.name, type: o.type, cell: i, made: false });
  for (const v of made) {
    if (v.cell >= index) continue;
    const written = above.get(v.name);
    // What a run made adds its shape; a run of a cell since changed, or of outputs not declared, is still known.
    if (!written || written.cell <= v.cell)
      above.set(v.name, {
        name: v.name,
        type: written?.cell === v.cell && v.type === 'dynamic' ? written.type : v.type,
        cell: v.cell,
        rows: v.rows,
        columns: v.columns,
        value: v.value,
        made: true,
      });
  }
  const below = new Map<string, number>();
  for (let i = index + 1; i < declared.length; i++) for (const o of declared[i]) if (!above.has(o.name) && !below.has(o.name)) below.set(o.name, i);
  return { above, below };
}

/** "dataframe, 830 rows × 14 columns, made by cell 2", "int 3, made by cell 4", "dataframe, made by cell 2 (not run yet)". */
export function describeKnown(v: KnownVariable): string {
  const shape = v.type === 'dataframe' && v.rows !== undefined ? `, ${v.rows} rows × ${v.columns ?? '?'} columns` : '';
  const value = v.type !== 'dataframe' && v.value !== undefined ? ` ${clip(typeof v.value === 'string' ? JSON.stringify(v.value) : JSON.stringify(v.value))}` : '';
  return `${v.type}${value}${shape}, made by cell ${v.cell + 1}${v.made ? '' : ' (not run yet)'}`;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
