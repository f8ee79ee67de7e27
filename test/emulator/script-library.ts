// The demo library's scripts (with a language) and queries (reading the demo connector's files), each
// with a real signature and a real result; func-library.ts lists them after the functions.
import Papa from 'papaparse';
import { type FuncDef, input, output, type RunContext } from './func-catalog';
import { columnValues, csv, num, str } from './func-inputs';
import { ApiError } from './http';

/** Reads a demo CSV file and keeps the rows `keep` accepts (the queries' "SQL"). */
async function query(ctx: RunContext, path: string, keep: (row: Record<string, string>) => boolean): Promise<string> {
  const parsed = Papa.parse<Record<string, string>>(await ctx.readText('System:DemoFiles', path), { header: true, skipEmptyLines: true });
  const fields = parsed.meta.fields ?? [];
  return csv(
    fields,
    parsed.data.filter(keep).map((r) => fields.map((f) => r[f] ?? '')),
  );
}

const CONTINENTS = ['Africa', 'Asia', 'Europe', 'North America', 'Oceania', 'South America'];
const MAKES = ['BMW', 'Ford', 'Honda', 'Mercedes-Benz', 'Toyota', 'Volkswagen'];

export const SCRIPT_LIBRARY: FuncDef[] = [
  // Scripts
  {
    nqName: 'Scripts:Normalize',
    source: 'script',
    language: 'python',
    description: 'Normalizes a numeric column (z-score or min-max)',
    tags: ['stats', 'demo'],
    inputs: [
      input('table', 'dataframe', 'Table ID or name'),
      input('column', 'string', 'Numeric column name'),
      input('method', 'string', 'How to scale', { defaultValue: 'z-score', choices: ['z-score', 'min-max'] }),
    ],
    outputs: [output('result', 'dataframe', 'The column and its normalized values')],
    run: async (p, ctx) => {
      const v = await columnValues(ctx, `${str(p, 'table')}/${str(p, 'column')}`);
      const mean = v.reduce((a, b) => a + b, 0) / v.length;
      const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length) || 1;
      const lo = Math.min(...v);
      const span = Math.max(...v) - lo || 1;
      return csv(
        [str(p, 'column'), 'normalized'],
        v.map((x) => [x, p.method === 'min-max' ? (x - lo) / span : (x - mean) / sd]),
      );
    },
  },
  {
    nqName: 'Scripts:LinearRegression',
    source: 'script',
    language: 'r',
    description: 'Least-squares line y = slope·x + intercept',
    tags: ['stats'],
    inputs: [input('table', 'dataframe', 'Table ID or name'), input('x', 'string', 'Predictor column'), input('y', 'string', 'Response column')],
    outputs: [output('slope', 'double', 'Slope'), output('intercept', 'double', 'Intercept'), output('r2', 'double', 'Coefficient of determination')],
    run: async (p, ctx) => {
      const { rows } = await ctx.rows(str(p, 'table'));
      const pts = rows.map((r) => [Number(r[str(p, 'x')]), Number(r[str(p, 'y')])]).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
      if (pts.length < 2) throw new ApiError(400, 'Need at least two rows with numeric x and y');
      const mx = pts.reduce((s, [a]) => s + a, 0) / pts.length;
      const my = pts.reduce((s, [, b]) => s + b, 0) / pts.length;
      const sxy = pts.reduce((s, [a, b]) => s + (a - mx) * (b - my), 0);
      const sxx = pts.reduce((s, [a]) => s + (a - mx) ** 2, 0) || 1;
      const slope = sxy / sxx;
      const intercept = my - slope * mx;
      const ssTot = pts.reduce((s, [, b]) => s + (b - my) ** 2, 0) || 1;
      const ssRes = pts.reduce((s, [a, b]) => s + (b - (slope * a + intercept)) ** 2, 0);
      return [slope, intercept, 1 - ssRes / ssTot];
    },
  },
  {
    nqName: 'Scripts:Greet',
    source: 'script',
    language: 'javascript',
    description: 'A greeting',
    tags: ['demo'],
    inputs: [input('name', 'string', 'Who to greet'), input('excited', 'bool', 'End with "!"', { defaultValue: false })],
    outputs: [output('greeting', 'string', 'Hello, name')],
    run: (p) => `Hello, ${str(p, 'name')}${p.excited ? '!' : '.'}`,
  },
  {
    nqName: 'Scripts:SumList',
    source: 'script',
    language: 'python',
    description: 'Sum of a list of numbers',
    tags: ['math'],
    inputs: [input('values', 'list', 'Numbers')],
    outputs: [output('sum', 'double', 'Their sum')],
    run: (p) =>
      (p.values as unknown[]).reduce<number>((s, v) => {
        if (typeof v !== 'number') throw new ApiError(400, 'values must be numbers');
        return s + v;
      }, 0),
  },
  // Queries (on the demo connector's files)
  {
    nqName: 'Queries:CountriesByContinent',
    source: 'data-query',
    connection: 'System:DemoFiles',
    description: 'Countries of a continent',
    tags: ['geo', 'demo'],
    inputs: [input('continent', 'string', 'Continent', { defaultValue: 'Europe', choices: CONTINENTS })],
    outputs: [output('result', 'dataframe', 'The countries')],
    run: (p, ctx) => query(ctx, 'geo/countries.csv', (r) => r.continent === p.continent),
  },
  {
    nqName: 'Queries:CitiesAbove',
    source: 'data-query',
    connection: 'System:DemoFiles',
    description: 'Cities with at least a population',
    tags: ['geo'],
    inputs: [input('minPopulation', 'int', 'Smallest population', { defaultValue: 10000000 })],
    outputs: [output('result', 'dataframe', 'The cities')],
    run: (p, ctx) => query(ctx, 'geo/cities.csv', (r) => Number(r.population) >= num(p, 'minPopulation')),
  },
  {
    nqName: 'Queries:CarsByMake',
    source: 'data-query',
    connection: 'System:DemoFiles',
    description: 'Cars of one make, optionally newer than a year',
    tags: ['demo'],
    inputs: [input('make', 'string', 'Make', { choices: MAKES }), input('since', 'int', 'Earliest model year', { nullable: true })],
    outputs: [output('result', 'dataframe', 'The cars')],
    run: (p, ctx) => query(ctx, 'cars.csv', (r) => r.make === p.make && (p.since === null || Number(r.year) >= num(p, 'since'))),
  },
];
