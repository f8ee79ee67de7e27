// A package's tests found in its test sources without running anything, as @datagrok-libraries/test
// registers them: `category(name, () => { … }, options?)` makes `name` the current category and runs the
// body, and every `test(name, fn, options?)` joins the current category (so a category() call inside
// another's body starts a category of its own, and tests after it join that one, as at run time).
// A test whose name is a template inside `for (const x of [literals])` is expanded once per literal;
// one whose name cannot be known before the run is kept with its template text (`dynamic`).
// Tokens come from js-tokens (strings, templates, comments and regular expressions kept whole).
// Pure: takes a file's text.
import jsTokens, { matchToToken } from 'js-tokens';

/** 0-based line and character, as VS Code's positions. */
export interface Position {
  line: number;
  character: number;
}
export interface Span {
  start: Position;
  end: Position;
}

export interface TestOptions {
  node?: boolean;
  skipReason?: string;
}

export interface DiscoveredTest {
  name: string;
  /** The `test(` call (its callee's first character to the closing parenthesis). */
  span: Span;
  options: TestOptions;
  /** The name is computed at run time (a template or a variable the source does not fix). */
  dynamic?: boolean;
}

export interface DiscoveredCategory {
  name: string;
  span: Span;
  options: TestOptions;
  tests: DiscoveredTest[];
}

interface Token {
  type: string;
  value: string;
  offset: number;
}

const SKIPPED = new Set(['whitespace', 'comment']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = new RegExp(jsTokens.source, 'g');
  for (let m = pattern.exec(text); m !== null && m[0] !== ''; m = pattern.exec(text)) {
    const t = matchToToken(m);
    if (!SKIPPED.has(t.type)) tokens.push({ type: t.type, value: t.value, offset: m.index });
  }
  return tokens;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** A string literal's value, or a template without `${…}`; undefined for anything else. */
function literalText(token: Token | undefined): string | undefined {
  if (token?.type !== 'string' || token.value.length < 2) return undefined;
  const quote = token.value[0];
  const body = token.value.slice(1, -1);
  if (quote === '`' && body.includes('${')) return undefined;
  return body.replace(/\\(u\{[\da-fA-F]+\}|u[\da-fA-F]{4}|x[\da-fA-F]{2}|[\s\S])/g, (_, e: string) => {
    if (e[0] === 'u' || e[0] === 'x') return String.fromCodePoint(Number.parseInt(e.replace(/[ux{}]/g, ''), 16));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[e] ?? (e === '\n' ? '' : e);
  });
}

/** The index of the token that closes the bracket opened at `open`. */
function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const v = tokens[i].value;
    if (tokens[i].type !== 'punctuator') continue;
    if (v === '(' || v === '[' || v === '{') depth++;
    else if (v === ')' || v === ']' || v === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return tokens.length - 1;
}

/** The top-level arguments of the call whose `(` is at `open`: [first, last] token indexes of each. */
function callArguments(tokens: Token[], open: number, close: number): [number, number][] {
  const args: [number, number][] = [];
  let start = open + 1;
  for (let i = open + 1; i < close; i++) {
    const v = tokens[i].value;
    if (tokens[i].type === 'punctuator' && (v === '(' || v === '[' || v === '{')) i = closing(tokens, i);
    else if (tokens[i].type === 'punctuator' && v === ',') {
      args.push([start, i - 1]);
      start = i + 1;
    }
  }
  if (start < close) args.push([start, close - 1]);
  return args;
}

/** `{ node: true, skipReason: '…' }` written as an object literal (other shapes: nothing known). */
function optionsOf(tokens: Token[], arg: [number, number] | undefined): TestOptions {
  const options: TestOptions = {};
  if (!arg || tokens[arg[0]].value !== '{') return options;
  let depth = 0;
  for (let i = arg[0]; i <= arg[1]; i++) {
    const v = tokens[i].value;
    if (v === '{' || v === '[' || v === '(') depth++;
    else if (v === '}' || v === ']' || v === ')') depth--;
    if (depth !== 1 || tokens[i + 1]?.value !== ':') continue;
    const key = tokens[i].type === 'name' ? v : literalText(tokens[i]);
    const value = tokens[i + 2];
    if (key === 'node' && (value?.value === 'true' || value?.value === 'false')) options.node = value.value === 'true';
    // A reason computed at run time (`cond ? 'why' : undefined`) may or may not skip: not known here.
    const reason = literalText(value);
    if (key === 'skipReason' && reason !== undefined && tokens[i + 3]?.value !== '?') options.skipReason = reason;
  }
  return options;
}

/** `for (const x of [a, b])` loops around a token: variable → the literal values, innermost last. */
interface Loop {
  variable: string;
  values: string[] | undefined;
  end: number;
}

/** A template name with `${x}` where every x is a loop variable with known values: each name it takes. */
function expand(template: string, loops: Loop[]): string[] | undefined {
  let names = [template];
  for (const loop of loops) {
    if (!template.includes(`\${${loop.variable}}`)) continue;
    if (!loop.values) return undefined;
    names = names.flatMap((n) => loop.values?.map((v) => n.split(`\${${loop.variable}}`).join(v)) ?? []);
  }
  return names.some((n) => n.includes('${')) ? undefined : names;
}

/** The categories and tests a test source registers, in order. */
export function discoverTests(text: string): DiscoveredCategory[] {
  const tokens = tokenize(text);
  const starts = lineStarts(text);
  const position = (offset: number): Position => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo] };
  };
  const span = (from: number, to: number): Span => ({ start: position(tokens[from].offset), end: position(tokens[to].offset + tokens[to].value.length) });

  const categories: DiscoveredCategory[] = [];
  let current: DiscoveredCategory | undefined;
  const loops: Loop[] = [];
  for (let i = 0; i < tokens.length; i++) {
    while (loops.length > 0 && i > loops[loops.length - 1].end) loops.pop();
    const t = tokens[i];
    if (t.type !== 'name' || tokens[i + 1]?.value !== '(') continue;
    const previous = tokens[i - 1];
    if (previous && (previous.value === '.' || previous.value === 'function')) continue;
    if (t.value === 'for') {
      const loop = forOfLoop(tokens, i);
      if (loop) loops.push(loop);
      continue;
    }
    if (t.value !== 'category' && t.value !== 'test') continue;
    const close = closing(tokens, i + 1);
    const args = callArguments(tokens, i + 1, close);
    if (args.length < 2) continue;
    const nameToken = tokens[args[0][0]];
    const single = args[0][0] === args[0][1];
    const fixed = single ? literalText(nameToken) : undefined;
    if (t.value === 'category') {
      if (fixed === undefined) continue;
      current = categories.find((c) => c.name === fixed);
      if (!current) {
        current = { name: fixed, span: span(i, close), options: optionsOf(tokens, args[2]), tests: [] };
        categories.push(current);
      }
      continue;
    }
    if (!current) continue;
    const options = optionsOf(tokens, args[2]);
    const where = span(i, close);
    if (fixed !== undefined) {
      current.tests.push({ name: fixed, span: where, options });
      continue;
    }
    const template = single && nameToken.type === 'string' && nameToken.value.startsWith('`') ? nameToken.value.slice(1, -1) : undefined;
    const names = template !== undefined ? expand(template, loops) : undefined;
    if (names) for (const name of names) current.tests.push({ name, span: where, options });
    else current.tests.push({ name: template ?? text.slice(nameToken.offset, tokens[args[0][1]].offset + tokens[args[0][1]].value.length), span: where, options, dynamic: true });
  }
  return categories;
}

/** `for (const|let|var x of [literal, …]) …`: the variable and, when every element is a literal, the values. */
function forOfLoop(tokens: Token[], at: number): Loop | undefined {
  const open = at + 1;
  const close = closing(tokens, open);
  const [decl, variable, of] = [tokens[open + 1], tokens[open + 2], tokens[open + 3]];
  if (!decl || !['const', 'let', 'var'].includes(decl.value) || variable?.type !== 'name' || of?.value !== 'of') return undefined;
  const bodyStart = close + 1;
  const end = tokens[bodyStart]?.value === '{' ? closing(tokens, bodyStart) : statementEnd(tokens, bodyStart);
  let values: string[] | undefined;
  if (tokens[open + 4]?.value === '[' && closing(tokens, open + 4) === close - 1) {
    const elements = callArguments(tokens, open + 4, close - 1);
    const literal = elements.map(([a, b]) => (a === b ? (literalText(tokens[a]) ?? (tokens[a].type === 'number' ? tokens[a].value : undefined)) : undefined));
    values = literal.every((v) => v !== undefined) ? (literal as string[]) : undefined;
  }
  return { variable: variable.value, values, end };
}

/** A loop body without braces: to its `;` (a call's parentheses skipped). */
function statementEnd(tokens: Token[], from: number): number {
  for (let i = from; i < tokens.length; i++) {
    const v = tokens[i].value;
    if (v === '(' || v === '[' || v === '{') i = closing(tokens, i);
    else if (v === ';') return i;
  }
  return tokens.length - 1;
}
