// The agents' operations by name: what each does (definitions.ts), how it runs, and for those that
// change the server, what the user is asked first. No vscode here: the MCP server bundles this too.
import type { Confirmation, OperationContext } from './context';
import { DEFINITIONS, type OperationDefinition } from './definitions';
import { confirmCreateDashboard, confirmShare, createDashboard, shareDashboard } from './dashboards';
import { confirmWrite, listFiles, readFile, writeFile } from './files';
import { confirmRun, describeFunction, findFunctions, runFunction } from './functions';
import { confirmResolve, listGroups, listPendingRequests, resolveRequest } from './groups';
import { checkInput, type Input, inputObject } from './inputs';
import { confirmPush, openTable, pushTable } from './tables';

export type { Confirmation, LocalCsv, LocalFiles, LocalText, OperationContext } from './context';
export { DEFINITIONS, type OperationDefinition } from './definitions';

type Run = (ctx: OperationContext, input: Input, signal?: AbortSignal) => Promise<string>;
type Confirm = (ctx: OperationContext, input: Input) => Promise<Confirmation>;

const RUN: Record<string, { run: Run; confirm?: Confirm }> = {
  datagrok_findFunctions: { run: findFunctions },
  datagrok_describeFunction: { run: describeFunction },
  datagrok_runFunction: { run: runFunction, confirm: confirmRun },
  datagrok_pushTable: { run: pushTable, confirm: confirmPush },
  datagrok_openTable: { run: openTable },
  datagrok_listFiles: { run: listFiles },
  datagrok_readFile: { run: readFile },
  datagrok_writeFile: { run: writeFile, confirm: confirmWrite },
  datagrok_createDashboard: { run: createDashboard, confirm: confirmCreateDashboard },
  datagrok_shareDashboard: { run: shareDashboard, confirm: confirmShare },
  datagrok_listGroups: { run: listGroups },
  datagrok_listPendingRequests: { run: listPendingRequests },
  datagrok_resolveRequest: { run: resolveRequest, confirm: confirmResolve },
};

export interface Operation extends OperationDefinition {
  /** Runs it and answers compact text (JSON for most) for a model. */
  run(ctx: OperationContext, input: unknown, signal?: AbortSignal): Promise<string>;
  /** For an operation that changes the server: the question naming every change. Has no side effect. */
  confirm?(ctx: OperationContext, input: unknown): Promise<Confirmation>;
}

/** The most text one answer gives a model; a longer one is cut with a note saying so. */
export const MAX_ANSWER_CHARS = 100_000;

export function capAnswer(text: string): string {
  if (text.length <= MAX_ANSWER_CHARS) return text;
  return `${text.slice(0, MAX_ANSWER_CHARS)}\n… (cut: the answer has ${text.length.toLocaleString('en-US')} characters; ask for less, e.g. a smaller limit or fewer rows)`;
}

function checked(definition: OperationDefinition, input: unknown): Input {
  const object = inputObject(input);
  checkInput(definition.name, definition.inputSchema, object);
  return object;
}

/** The schema a tool advertises over MCP: as in the editor, plus what only the editor can do without. */
export function mcpInputSchema(definition: OperationDefinition): OperationDefinition['inputSchema'] {
  const required = [...(definition.inputSchema.required ?? []), ...(definition.requiredOverMcp ?? [])];
  return required.length ? { ...definition.inputSchema, required } : definition.inputSchema;
}

/** The MCP annotations: reads are read-only and idempotent; writes say whether they replace and whether a repeat changes more. */
export function mcpAnnotations(definition: OperationDefinition) {
  return {
    title: definition.title,
    readOnlyHint: definition.readOnly,
    destructiveHint: definition.readOnly ? false : definition.destructive !== false,
    idempotentHint: definition.readOnly ? true : definition.idempotent === true,
    openWorldHint: true,
  };
}

export const OPERATIONS: readonly Operation[] = DEFINITIONS.map((definition) => {
  const impl = RUN[definition.name];
  if (!impl || Boolean(impl.confirm) === definition.readOnly) throw new Error(`operation ${definition.name}: implementation and definition disagree`);
  const confirm = impl.confirm;
  return {
    ...definition,
    run: async (ctx, input, signal) => capAnswer(await impl.run(ctx, checked(definition, input), signal)),
    confirm: confirm ? (ctx, input) => confirm(ctx, checked(definition, input)) : undefined,
  };
});

export function operation(name: string): Operation | undefined {
  return OPERATIONS.find((o) => o.name === name);
}
