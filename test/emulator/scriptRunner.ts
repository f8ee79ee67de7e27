// Runs a saved script or query when it is called as a function (`POST /public/v1/functions/{ns.name}/call`),
// with the languages the emulator has (scriptLanguages.ts): JavaScript, Python (with pandas), SQL on the
// demo database. Other languages and data sources answer that they are not available here.
import type { RunContext } from './func-catalog';
import { ApiError } from './http';
import { runCode, type ScriptParam, type ScriptRunContext } from './scriptLanguages';

export type EntityJson = Record<string, unknown>;

/** The parameters of a script or query: its `params` when it carries them, else its header's lines. */
function paramsOf(entity: EntityJson, code: string): ScriptParam[] {
  if (Array.isArray(entity.params) && entity.params.length) return entity.params as ScriptParam[];
  const out: ScriptParam[] = [];
  for (const line of code.split(/\r?\n/)) {
    const m = /^\s*(?:#|\/\/|--)\s*(input|output)\s*:\s*([\w]+)(?:<[^>]*>)?\s+([\w$]+)/.exec(line);
    if (m) out.push({ name: m[3], propertyType: m[2].toLowerCase(), isInput: m[1] === 'input' });
  }
  return out;
}

/** Initial values of the header (`= value`) for inputs the call leaves out, as a server applies them. */
function withInitialValues(entity: EntityJson, params: Record<string, unknown>): Record<string, unknown> {
  const out = { ...params };
  for (const p of (Array.isArray(entity.params) ? entity.params : []) as { name: string; isInput: boolean; defaultValue?: unknown; propertyType: string }[]) {
    if (!p.isInput || p.name in out || p.defaultValue === null || p.defaultValue === undefined) continue;
    const v = p.defaultValue;
    out[p.name] =
      typeof v === 'string' && /^(int|double|num|bigint)$/i.test(p.propertyType) && Number.isFinite(Number(v))
        ? Number(v)
        : typeof v === 'string' && /^bool$/i.test(p.propertyType)
          ? v === 'true'
          : typeof v === 'string'
            ? v.replace(/^"(.*)"$/, '$1')
            : v;
  }
  return out;
}

function context(ctx: RunContext | undefined): ScriptRunContext {
  return {
    rows: (table) => {
      if (!ctx) throw new ApiError(500, 'No tables to bind here');
      return ctx.rows(table);
    },
    tableNames: () => ctx?.tableNames?.() ?? [],
  };
}

/** A saved script called with its parameters by name. */
export async function runScript(script: EntityJson, params: Record<string, unknown>, ctx?: RunContext): Promise<unknown> {
  const code = String(script.script ?? '');
  const language = typeof script.language === 'string' && script.language ? script.language : 'unknown';
  const name = String(script.name ?? script.nqName);
  return runCode({ name, language, code, params: paramsOf(script, code) }, withInitialValues(script, params), context(ctx));
}

/** A saved query called with its parameters by name: on the demo database, whatever connection it names. */
export async function runQuery(query: EntityJson, params: Record<string, unknown>, ctx?: RunContext): Promise<unknown> {
  const code = String(query.query ?? '');
  const name = String(query.name ?? query.nqName);
  return runCode({ name, language: 'sql', code, params: paramsOf(query, code) }, withInitialValues(query, params), context(ctx));
}
