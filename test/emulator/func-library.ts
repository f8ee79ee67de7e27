// The demo library beyond package Demo: several packages of functions, scripts (with a language) and
// queries (reading the demo connector's files), each with a real signature and a real result. The
// scripts and queries are in script-library.ts.
import { type FuncDef, input, output } from './func-catalog';
import { columnValues, csv, num, str } from './func-inputs';
import { ApiError } from './http';
import { SCRIPT_LIBRARY } from './script-library';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const ATOMIC_MASS: Record<string, number> = { H: 1.008, C: 12.011, N: 14.007, O: 15.999, F: 18.998, P: 30.974, S: 32.06, Cl: 35.45, Br: 79.904, I: 126.904 };

/** Atom counts of a molecular formula such as `C9H8O4`. */
function atoms(formula: string): Map<string, number> {
  const counts = new Map<string, number>();
  const re = /([A-Z][a-z]?)(\d*)/g;
  let consumed = 0;
  for (const m of formula.matchAll(re)) {
    if (!(m[1] in ATOMIC_MASS)) throw new ApiError(400, `Unknown element "${m[1]}" in ${formula}`);
    counts.set(m[1], (counts.get(m[1]) ?? 0) + (m[2] ? Number(m[2]) : 1));
    consumed += m[0].length;
  }
  if (consumed !== formula.length || counts.size === 0) throw new ApiError(400, `"${formula}" is not a molecular formula`);
  return counts;
}

export const LIBRARY: FuncDef[] = [
  // Math
  {
    nqName: 'Math:Multiply',
    description: 'Multiplies two numbers',
    tags: ['math'],
    inputs: [input('a', 'double', 'First factor'), input('b', 'double', 'Second factor')],
    outputs: [output('product', 'double', 'a × b')],
    run: (p) => num(p, 'a') * num(p, 'b'),
  },
  {
    nqName: 'Math:Round',
    description: 'Rounds a number to a number of decimal digits',
    tags: ['math'],
    inputs: [input('value', 'double', 'The number'), input('digits', 'int', 'Decimal digits', { defaultValue: 0 })],
    outputs: [output('rounded', 'double', 'The rounded number')],
    run: (p) => Number(num(p, 'value').toFixed(Math.max(0, Math.min(15, num(p, 'digits'))))),
  },
  {
    nqName: 'Math:Clamp',
    description: 'Limits a number to a range',
    tags: ['math'],
    inputs: [input('value', 'double', 'The number'), input('min', 'double', 'Lower bound', { defaultValue: 0 }), input('max', 'double', 'Upper bound', { defaultValue: 1 })],
    outputs: [output('clamped', 'double', 'The number within [min, max]')],
    run: (p) => Math.min(num(p, 'max'), Math.max(num(p, 'min'), num(p, 'value'))),
  },
  {
    nqName: 'Math:Sqrt',
    description: 'Square root',
    tags: ['math'],
    inputs: [input('x', 'double', 'A non-negative number')],
    outputs: [output('root', 'double', '√x')],
    run: (p) => {
      if (num(p, 'x') < 0) throw new ApiError(400, 'x must not be negative');
      return Math.sqrt(num(p, 'x'));
    },
  },
  // Text
  {
    nqName: 'Text:Upper',
    description: 'Upper-cases a text',
    tags: ['text'],
    inputs: [input('text', 'string', 'Any text')],
    outputs: [output('result', 'string', 'The text in upper case')],
    run: (p) => str(p, 'text').toUpperCase(),
  },
  {
    nqName: 'Text:Concat',
    description: 'Joins two texts with a separator',
    tags: ['text'],
    inputs: [input('a', 'string', 'First text'), input('b', 'string', 'Second text'), input('separator', 'string', 'Put between them', { defaultValue: ' ' })],
    outputs: [output('result', 'string', 'a, separator, b')],
    run: (p) => `${str(p, 'a')}${str(p, 'separator')}${str(p, 'b')}`,
  },
  {
    nqName: 'Text:Split',
    description: 'Splits a text into a list',
    tags: ['text'],
    inputs: [input('text', 'string', 'Any text'), input('separator', 'string', 'Where to split', { defaultValue: ',', choices: [',', ';', ' ', '|'] })],
    outputs: [output('parts', 'list', 'The pieces')],
    run: (p) => str(p, 'text').split(str(p, 'separator')),
  },
  {
    nqName: 'Text:Length',
    description: 'Number of characters of a text',
    tags: ['text'],
    inputs: [input('text', 'string', 'Any text')],
    outputs: [output('length', 'int', 'Characters')],
    run: (p) => [...str(p, 'text')].length,
  },
  // Stats
  {
    nqName: 'Stats:Mean',
    description: 'Mean of a numeric column',
    tags: ['stats'],
    inputs: [input('column', 'column', 'The column as "<table>/<column>"')],
    outputs: [output('mean', 'double', 'Average')],
    run: async (p, ctx) => {
      const v = await columnValues(ctx, str(p, 'column'));
      return v.reduce((a, b) => a + b, 0) / v.length;
    },
  },
  {
    nqName: 'Stats:Median',
    description: 'Median of a numeric column',
    tags: ['stats'],
    inputs: [input('column', 'column', 'The column as "<table>/<column>"')],
    outputs: [output('median', 'double', 'Middle value')],
    run: async (p, ctx) => median(await columnValues(ctx, str(p, 'column'))),
  },
  {
    nqName: 'Stats:Histogram',
    description: 'Counts the values of a numeric column in equal-width bins',
    tags: ['stats'],
    inputs: [input('column', 'column', 'The column as "<table>/<column>"'), input('bins', 'int', 'Number of bins', { defaultValue: 10 })],
    outputs: [output('histogram', 'dataframe', 'from, to, count per bin')],
    run: async (p, ctx) => {
      const v = await columnValues(ctx, str(p, 'column'));
      const bins = num(p, 'bins');
      if (bins < 1 || bins > 1000) throw new ApiError(400, 'bins must be between 1 and 1000');
      const lo = Math.min(...v);
      const width = (Math.max(...v) - lo) / bins || 1;
      const counts = new Array<number>(bins).fill(0);
      for (const x of v) counts[Math.min(bins - 1, Math.floor((x - lo) / width))]++;
      return csv(
        ['from', 'to', 'count'],
        counts.map((c, i) => [lo + i * width, lo + (i + 1) * width, c]),
      );
    },
  },
  {
    nqName: 'Stats:Describe',
    description: 'Row count and, per numeric column, min / max / mean',
    tags: ['stats'],
    inputs: [input('table', 'dataframe', 'Table ID or name')],
    outputs: [output('summary', 'dataframe', 'column, min, max, mean'), output('rows', 'int', 'Row count')],
    run: async (p, ctx) => {
      const { fields, rows } = await ctx.rows(str(p, 'table'));
      const lines: unknown[][] = [];
      for (const f of fields) {
        const v = rows
          .map((r) => r[f])
          .filter((x) => x !== undefined && x.trim() !== '')
          .map(Number);
        if (v.length && v.every(Number.isFinite)) lines.push([f, Math.min(...v), Math.max(...v), v.reduce((a, b) => a + b, 0) / v.length]);
      }
      return [csv(['column', 'min', 'max', 'mean'], lines), rows.length];
    },
  },
  // Dates
  {
    nqName: 'Dates:DaysBetween',
    description: 'Whole days from one date to another',
    tags: ['dates'],
    inputs: [input('start', 'datetime', 'From'), input('end', 'datetime', 'To')],
    outputs: [output('days', 'int', 'end − start in days')],
    run: (p) => Math.floor((Date.parse(str(p, 'end')) - Date.parse(str(p, 'start'))) / 86400e3),
  },
  {
    nqName: 'Dates:AddDays',
    description: 'A date plus a number of days',
    tags: ['dates'],
    inputs: [input('date', 'datetime', 'The date'), input('days', 'int', 'Days to add', { defaultValue: 1 })],
    outputs: [output('result', 'datetime', 'The new date')],
    run: (p) => new Date(Date.parse(str(p, 'date')) + num(p, 'days') * 86400e3).toISOString(),
  },
  // Chem
  {
    nqName: 'Chem:MolecularWeight',
    description: 'Molecular weight of a formula such as C9H8O4',
    tags: ['chem'],
    inputs: [input('formula', 'string', 'Molecular formula')],
    outputs: [output('weight', 'double', 'g/mol')],
    run: (p) => Number([...atoms(str(p, 'formula'))].reduce((w, [el, n]) => w + ATOMIC_MASS[el] * n, 0).toFixed(3)),
  },
  {
    nqName: 'Chem:AtomCount',
    description: 'Number of atoms in a formula',
    tags: ['chem'],
    inputs: [input('formula', 'string', 'Molecular formula'), input('includeHydrogens', 'bool', 'Count H atoms too', { defaultValue: true })],
    outputs: [output('atoms', 'int', 'Atom count')],
    run: (p) => [...atoms(str(p, 'formula'))].reduce((s, [el, n]) => s + (el === 'H' && !p.includeHydrogens ? 0 : n), 0),
  },
  ...SCRIPT_LIBRARY,
];
