// What a script's header declares, as the rest of the extension reads functions: a signature (FuncInfo)
// for parameter files, the run's initial inputs, and the header's problems for diagnostics. Pure.
import type { FuncInfo, FuncParam } from '../../api/types';
import type { HeaderParam, HeaderProblem, ScriptHeader } from './header';
import { KNOWN_TYPES, LANGUAGES, languageOfFile } from './vocabulary';

/** Whether the header is a query's (SQL) rather than a script's. */
export function isQueryHeader(header: ScriptHeader): boolean {
  return header.prefix === '--';
}

function toParam(p: HeaderParam): FuncParam {
  const optional = /^true$/i.test(p.options.nullable ?? '') || /^true$/i.test(p.options.optional ?? '');
  return {
    name: p.name,
    propertyType: p.baseType,
    isInput: p.direction === 'input',
    description: p.description,
    defaultValue: p.initial ?? null,
    nullable: optional,
    ...(p.choices ? { choices: p.choices } : {}),
  };
}

/** The language of a script: its `language` line, else what the file's extension implies. */
export function scriptLanguage(header: ScriptHeader, fileName: string): string | undefined {
  return header.value('language')?.toLowerCase() ?? languageOfFile(fileName);
}

/** The header as a function's signature; `nqName` is the header's name (the server adds the namespace). */
export function headerSignature(header: ScriptHeader, fileName: string): FuncInfo {
  const name = header.value('name') ?? fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
  const tags = header.value('tags');
  return {
    id: '',
    name,
    nqName: name,
    package: '',
    kind: isQueryHeader(header) ? 'query' : 'script',
    description: header.value('description'),
    tags: tags
      ? tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : [],
    params: [...header.inputs, ...header.outputs].filter((p) => p.name).map(toParam),
    language: isQueryHeader(header) ? undefined : scriptLanguage(header, fileName),
  };
}

/** The inputs a run sends when nothing else is given: every input's initial value, where it has one. */
export function initialInputs(header: ScriptHeader): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const p of header.inputs) if (p.name && p.initial !== undefined) inputs[p.name] = p.initial;
  return inputs;
}

/** The closest known name (edit distance at most 2, or one begins the other: `integer` → `int`), for "did you mean". */
export function closest(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  const w = word.toLowerCase();
  for (const k of known) {
    const lower = k.toLowerCase();
    const d = lower.length >= 3 && w.length >= 3 && (w.startsWith(lower) || lower.startsWith(w)) ? Math.min(2, distance(w, lower)) : distance(w, lower);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

export interface HeaderCheck extends HeaderProblem {
  severity: 'error' | 'warning';
  /** A replacement the quick fix offers. */
  fix?: string;
}

/**
 * What is wrong with a header: the parser's problems, unknown types, an input or output declared twice,
 * a missing `name` (and `language` for scripts, `connection` for queries), an unknown language, and a
 * `connection` the server does not have (`connections`: its names, when known). A notebook's cell
 * (`inNotebook`) needs no name nor language: the notebook gives them.
 */
export function headerProblems(header: ScriptHeader, connections?: readonly string[], inNotebook = false): HeaderCheck[] {
  const checks: HeaderCheck[] = header.problems.map((p) => ({ ...p, severity: 'error' }));
  const first = { line: header.firstLine, start: 0, end: 0 };
  const query = isQueryHeader(header);
  if (header.value('name') === undefined && !inNotebook)
    checks.push({ ...first, severity: 'error', message: `The header has no name: add "${header.prefix}name: <Name>", the name the function is saved and called by.` });
  if (!query && header.value('language') === undefined && !inNotebook)
    checks.push({ ...first, severity: 'error', message: `The header has no language: add "${header.prefix}language: <${LANGUAGES.join(' | ')}>".` });
  const seen = new Map<string, HeaderParam>();
  for (const p of [...header.inputs, ...header.outputs]) {
    if (!KNOWN_TYPES.has(p.baseType)) {
      const fix = closest(p.baseType, KNOWN_TYPES);
      checks.push({
        line: p.line,
        start: p.typeStart,
        end: p.typeEnd,
        severity: 'error',
        message: `Unknown type "${p.type}"${fix ? `: did you mean "${fix}"?` : '.'} Types: int, double, bool, string, datetime, dataframe, column, column_list, list, graphics, file, blob.`,
        fix,
      });
    }
    if (!p.name) {
      if (p.direction === 'input')
        checks.push({ line: p.line, start: p.typeStart, end: p.typeEnd, severity: 'error', message: `The input has no name: "input: ${p.type} <name>".` });
      continue;
    }
    const before = seen.get(p.name);
    if (before) {
      checks.push({
        line: p.line,
        start: p.nameStart,
        end: p.nameEnd,
        severity: 'error',
        message: `"${p.name}" is declared twice (first on line ${before.line + 1}): each input and output needs a name of its own.`,
      });
    } else seen.set(p.name, p);
  }
  for (const e of header.entries) {
    if (e.key === 'language' && !query) {
      const language = e.value.toLowerCase();
      if (!LANGUAGES.includes(language)) {
        const fix = closest(language, LANGUAGES);
        checks.push({
          line: e.line,
          start: e.valueStart,
          end: e.valueStart + e.value.length,
          severity: 'error',
          message: `Unknown language "${e.value}"${fix ? `: did you mean "${fix}"?` : '.'} Languages: ${LANGUAGES.join(', ')}.`,
          fix,
        });
      }
    }
    if (e.key === 'connection' && connections && e.value) {
      const known = connections.some((c) => c.toLowerCase() === e.value.toLowerCase() || c.toLowerCase().endsWith(`:${e.value.toLowerCase()}`));
      if (!known) {
        const names = connections.map((c) => c.replace(/^.*:/, ''));
        const fix = closest(e.value, names);
        checks.push({
          line: e.line,
          start: e.valueStart,
          end: e.valueStart + e.value.length,
          severity: 'warning',
          message: `The server has no connection "${e.value}"${fix ? `: did you mean "${fix}"?` : '.'}`,
          fix,
        });
      }
    }
  }
  if (query && header.value('connection') === undefined)
    checks.push({ ...first, severity: 'warning', message: 'The query names no connection: add "--connection: <Connection>", the data connection it runs on.' });
  return checks;
}
