// Find, describe and run platform functions.
import { badInput } from '../../api/errors';
import { hostOf } from '../../api/names';
import type { FuncInfo } from '../../api/types';
import { csvReferences, isAbsolutePath } from '../../core/csvReferences';
import { checkFunctionName, FUNCTION_KEY, parseParameterFile, withoutToolingKeys } from '../../core/parameterFile';
import { describeShape } from '../../platform/tables/csvSample';
import { looksLikeCsv, outputsOf } from '../../platform/functions/outputs';
import { inspectSource, pushCsv } from '../../platform/tables/push';
import { inputsOf, isRequired, jsonTypeOf, outputsOf as funcOutputs, parameterFileText, signatureLine } from '../../platform/functions/signature';
import { checkTableName } from '../../platform/tables/names';
import type { Confirmation, OperationContext } from './context';
import { cacheNote } from './freshness';
import { clip, type Input, integer, json, optionalText, plainObject, text } from './inputs';
import { summarizeCsv } from './summary';

export async function findFunctions(ctx: OperationContext, input: Input): Promise<string> {
  const started = Date.now();
  const query = optionalText(input, 'query') ?? '';
  const limit = integer(input, 'limit', 50, 1, 200);
  const found = await ctx.catalog.searchFunctions(query);
  return json({
    total: found.length,
    shown: Math.min(limit, found.length),
    functions: found.slice(0, limit).map((f) => ({ nqName: f.nqName, kind: f.kind, description: f.description ? clip(f.description) : undefined })),
    ...cacheNote(found, started),
  });
}

function describe(func: FuncInfo) {
  const param = (p: NonNullable<FuncInfo['params']>[number]) => ({
    name: p.name,
    type: p.propertyType,
    json: jsonTypeOf(p.propertyType),
    required: p.isInput ? isRequired(p) : undefined,
    default: p.defaultValue ?? undefined,
    choices: p.choices,
    description: p.description,
  });
  return {
    nqName: func.nqName,
    kind: func.kind,
    language: func.language,
    description: func.description,
    signature: signatureLine(func),
    inputs: inputsOf(func).map(param),
    outputs: funcOutputs(func).map(param),
    parameterFile: parameterFileText(func),
  };
}

export async function describeFunction(ctx: OperationContext, input: Input): Promise<string> {
  const started = Date.now();
  const func = await ctx.catalog.func(text(input, 'name'));
  return json({ ...describe(func), ...cacheNote(func, started) });
}

interface RunPlan {
  name: string;
  params: Record<string, unknown>;
  /** Where relative "$csv" paths start: the parameter file's folder. */
  base?: string;
  /** For messages: the parameter file's name, when there is one. */
  file?: string;
}

async function planRun(ctx: OperationContext, input: Input): Promise<RunPlan> {
  const fn = optionalText(input, 'function');
  const given = plainObject(input, 'params');
  const path = optionalText(input, 'parameterFile');
  if (!fn && !path) throw badInput('Name the function ("function": "Package:Name") or give a "parameterFile" that names it with "$function".');
  let fileParams: Record<string, unknown> = {};
  let fileFunction: string | undefined;
  let base: string | undefined;
  let file: string | undefined;
  if (path) {
    const read = await ctx.files.text(path);
    const parsed = parseParameterFile(read.text, read.what);
    fileParams = parsed.params;
    fileFunction = parsed.functionName;
    base = read.dir;
    file = read.what;
  }
  const name = fn ? checkFunctionName(fn, '"function"') : fileFunction;
  if (!name) throw badInput(`${file} does not name a function: add "${FUNCTION_KEY}": "Package:Name" to it, or pass "function".`);
  return { name, params: { ...fileParams, ...(given ? withoutToolingKeys(given) : {}) }, base, file };
}

export async function confirmRun(ctx: OperationContext, input: Input): Promise<Confirmation> {
  const plan = await planRun(ctx, input);
  const api = await ctx.client();
  const lines = [
    `Run **${plan.name}** on ${hostOf(api.baseUrl)}${plan.file ? ` with the inputs of ${plan.file}` : ''}:`,
    '',
    '```json',
    clip(JSON.stringify(plan.params, null, 2), 2000),
    '```',
  ];
  const csvs = csvReferences(plan.params);
  // Each CSV must be one the tool may read: a path outside the workspace is refused before the question.
  for (const ref of csvs) await ctx.files.csv(ref.path, isAbsolutePath(ref.path) ? undefined : plan.base);
  if (csvs.length > 0) lines.push('', `First pushes ${csvs.map((r) => `"${r.path}" (input ${r.key})`).join(', ')} as new tables.`);
  if (plan.file && !ctx.files.trusted) lines.push('', `This workspace is not trusted: ${plan.file} is sent as the function's inputs. Run it only if you trust this file.`);
  return { title: `Run ${plan.name}?`, message: lines.join('\n') };
}

/** Dataframe outputs summarised, everything else as it came. */
function describeOutputs(result: unknown): unknown {
  const show = (value: unknown) => (looksLikeCsv(value) ? { dataframe: summarizeCsv(value, 10) } : value);
  return Array.isArray(result) ? outputsOf(result).map(show) : show(result);
}

export async function runFunction(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const plan = await planRun(ctx, input);
  const api = await ctx.client();
  const refs = csvReferences(plan.params);
  const params = { ...plan.params };
  const pushed: { input: string; table: string; id: string; shape: string }[] = [];
  // Every CSV is judged before any is pushed: one bad file sends nothing.
  const prepared = [];
  for (const ref of refs) {
    const csv = await ctx.files.csv(ref.path, isAbsolutePath(ref.path) ? undefined : plan.base);
    const name = ref.name !== undefined ? checkTableName(ref.name) : csv.defaultName;
    prepared.push({ ref, csv, name, shape: await inspectSource(csv.source, `The CSV "${ref.path}" of input "${ref.key}"`) });
  }
  for (const { ref, csv, name, shape } of prepared) {
    const { result } = await pushCsv(api, csv.source, name, { shape, signal });
    await ctx.remember?.('tables', api.baseUrl, result);
    params[ref.key] = result.ID;
    pushed.push({ input: ref.key, table: result.name, id: result.ID, shape: describeShape(shape) });
  }
  const result = await api.callFunction(plan.name, params, { signal });
  return json({ function: plan.name, result: describeOutputs(result), pushedTables: pushed.length ? pushed : undefined });
}
