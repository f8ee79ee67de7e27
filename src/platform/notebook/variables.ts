// The notebook's variables (what its cells' outputs made, by output name) and which cells a change makes
// stale. No vscode.

export interface NotebookVariable {
  name: string;
  /** dataframe, int, double, string, bool, graphics… as the function's output declares (or as seen). */
  type: string;
  /** The cell that made it (its index when it ran). */
  cell: number;
  /** A scalar's value. */
  value?: unknown;
  /** A dataframe: its table on the server (id), once there. */
  table?: string;
  /** A dataframe the server answered as CSV: its file (or its text, kept in memory), until a later cell needs it on the server. */
  file?: string;
  csv?: string;
  rows?: number;
  columns?: number;
}

/** A cell's reads and writes: the variables it takes by name and the outputs it makes. */
export interface CellFlow {
  reads: readonly string[];
  writes: readonly string[];
}

/**
 * The cells below `changed` whose inputs its change reaches: those reading what it writes, and, in turn,
 * those reading what they write. A name written again by a cell in between no longer comes from `changed`.
 */
export function staleBelow(cells: readonly CellFlow[], changed: number): number[] {
  const reached = new Set(cells[changed]?.writes ?? []);
  const stale: number[] = [];
  for (let i = changed + 1; i < cells.length; i++) {
    const cell = cells[i];
    const touched = cell.reads.some((name) => reached.has(name));
    if (touched) {
      stale.push(i);
      for (const name of cell.writes) reached.add(name);
    } else for (const name of cell.writes) reached.delete(name);
  }
  return stale;
}

/** "830 rows × 14 columns", "int 3"… how a variable is described in one line. */
export function describeVariable(v: NotebookVariable): string {
  if (v.type === 'dataframe') return `${v.rows ?? '?'} rows × ${v.columns ?? '?'} columns`;
  if (v.value === undefined) return v.type;
  const text = typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
  return `${v.type} ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}

/** The variables of one notebook, by name; a later cell's output replaces an earlier one of the same name. */
export class NotebookVariables {
  private readonly byName = new Map<string, NotebookVariable>();

  set(variable: NotebookVariable): void {
    this.byName.set(variable.name, variable);
  }

  get(name: string): NotebookVariable | undefined {
    return this.byName.get(name);
  }

  list(): NotebookVariable[] {
    return [...this.byName.values()].sort((a, b) => a.cell - b.cell || a.name.localeCompare(b.name));
  }

  /** Forgets what a cell made (before it runs again). */
  forgetCell(cell: number): void {
    for (const [name, v] of this.byName) if (v.cell === cell) this.byName.delete(name);
  }

  clear(): void {
    this.byName.clear();
  }
}
