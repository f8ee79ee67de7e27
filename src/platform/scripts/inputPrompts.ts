// What ▶ Run on Datagrok asks for each input of a script's header, and how an answer is checked and
// sent: one prompt per input, in the header's order, prefilled with its initial value, checked by its
// type (int, double, bool, a string with choices, a datetime, a list, a table, a column). Pure: no vscode.
import type { HeaderParam, ScriptHeader } from './header';
import { choiceList } from './header';

/** How an input is asked: a typed box, a pick of values, or a pick of tables. */
export type PromptKind = 'int' | 'number' | 'bool' | 'choice' | 'text' | 'datetime' | 'list' | 'column' | 'dataframe';

export interface InputPrompt {
  name: string;
  /** The type as the header writes it (`int`, `list<string>`). */
  type: string;
  kind: PromptKind;
  /** What the prompt shows: `caption` from the options, else the name. */
  caption: string;
  description?: string;
  /** The header's initial value as written (the box starts with it), or ''. */
  initialText: string;
  /** The values a choice offers (`true`/`false` for a bool). */
  choices?: string[];
  /** An empty answer leaves the input out (`optional: true` or `nullable: true`). */
  optional: boolean;
}

const INTEGERS = new Set(['int', 'bigint']);
const NUMBERS = new Set(['double', 'num', 'qnum', 'float']);
const LISTS = new Set(['list', 'column_list', 'string_list']);

function kindOf(p: HeaderParam): PromptKind {
  const t = p.baseType;
  if (p.choices && p.choices.length > 0) return 'choice';
  if (INTEGERS.has(t)) return 'int';
  if (NUMBERS.has(t)) return 'number';
  if (t === 'bool') return 'bool';
  if (t === 'datetime') return 'datetime';
  if (LISTS.has(t)) return 'list';
  if (t === 'column') return 'column';
  if (t === 'dataframe') return 'dataframe';
  return 'text';
}

function unquote(text: string): string {
  const t = text.trim();
  return t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0] ? t.slice(1, -1) : t;
}

/** The text a box starts with: the initial value as written, a list without its brackets and quotes. */
function initialTextOf(p: HeaderParam, kind: PromptKind): string {
  if (p.initialText === undefined) return '';
  if (kind === 'list') return (choiceList(p.initialText) ?? [unquote(p.initialText)]).join(', ');
  return unquote(p.initialText);
}

/** The prompts of a header's inputs, in order (inputs without a name are left out: the header check reports them). */
export function inputPrompts(header: ScriptHeader): InputPrompt[] {
  return header.inputs
    .filter((p) => p.name)
    .map((p) => {
      const kind = kindOf(p);
      const caption = p.options.caption ? unquote(p.options.caption) : p.name;
      return {
        name: p.name,
        type: p.type,
        kind,
        caption,
        description: p.description,
        initialText: initialTextOf(p, kind),
        ...(kind === 'choice' ? { choices: p.choices } : kind === 'bool' ? { choices: ['true', 'false'] } : {}),
        optional: /^true$/i.test(p.options.optional ?? '') || /^true$/i.test(p.options.nullable ?? ''),
      };
    });
}

/** The line a prompt shows: `b (int): the second number`, and what an empty answer means. */
export function promptText(prompt: InputPrompt): string {
  const type = prompt.kind === 'column' ? `${prompt.type}, as <table>/<column>` : prompt.kind === 'list' ? `${prompt.type}, comma-separated` : prompt.type;
  const about = prompt.description ? `: ${prompt.description}` : '';
  return `${prompt.caption} (${type})${about}${prompt.optional ? ' — optional, leave empty to send nothing' : ''}`;
}

/** What is wrong with an answer, in words a user can act on; undefined when it can be sent. */
export function inputProblem(prompt: InputPrompt, text: string): string | undefined {
  const t = text.trim();
  if (t === '') return prompt.optional ? undefined : `${prompt.caption} has no default: type a value (the script needs it).`;
  switch (prompt.kind) {
    case 'int':
      return /^[+-]?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? undefined : `${prompt.caption} is an int: type a whole number such as 3, not "${t}".`;
    case 'number':
      return t !== '' && Number.isFinite(Number(t)) ? undefined : `${prompt.caption} is a ${prompt.type}: type a number such as 2.5, not "${t}".`;
    case 'bool':
    case 'choice':
      return prompt.choices?.includes(t) ? undefined : `${prompt.caption} takes one of ${prompt.choices?.join(', ')}, not "${t}".`;
    case 'datetime':
      return Number.isNaN(Date.parse(t)) ? `${prompt.caption} is a datetime: type a date such as 2024-05-31 or 2024-05-31T12:00:00Z, not "${t}".` : undefined;
    case 'column':
      return /^[^/]+\/[^/]+$/.test(t) ? undefined : `${prompt.caption} is a column: type <table>/<column>, such as Demo:demog/age.`;
    default:
      return undefined;
  }
}

/** The value an answer sends (its problem checked first); undefined leaves the input out. */
export function inputValue(prompt: InputPrompt, text: string): unknown {
  const t = text.trim();
  if (t === '' && prompt.optional) return undefined;
  switch (prompt.kind) {
    case 'int':
    case 'number':
      return Number(t);
    case 'bool':
      return t === 'true';
    case 'list':
      return t === '' ? [] : t.split(',').map((s) => unquote(s));
    case 'datetime':
    case 'column':
    case 'choice':
    case 'dataframe':
      return t;
    default:
      // A string keeps its spaces: only an empty answer is special.
      return text;
  }
}

/** The answers as a call's parameters: empty optional inputs left out. */
export function inputParams(prompts: readonly InputPrompt[], answers: readonly unknown[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  prompts.forEach((p, i) => {
    if (answers[i] !== undefined) params[p.name] = answers[i];
  });
  return params;
}
