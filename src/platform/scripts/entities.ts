// A local script or query as the server saves it, and the two ways it goes up: for good (Push: create or
// update by the header's name, with a plan that says which) and for one run (a temporary copy under a
// unique name, called, and deleted afterwards whatever happens). No vscode here.
import { randomBytes } from 'node:crypto';
import { badInput } from '../../api/errors';
import type { ScriptEntity, ScriptKind } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';
import type { ScriptHeader } from './header';
import { isQueryHeader, scriptLanguage } from './signature';

export interface LocalScript {
  header: ScriptHeader;
  /** The whole text, header included. */
  code: string;
  fileName: string;
}

export function kindOf(local: LocalScript): ScriptKind {
  return isQueryHeader(local.header) ? 'query' : 'script';
}

/** The name the header gives; a script without one cannot be saved. */
export function headerName(local: LocalScript): string {
  const name = local.header.value('name');
  if (!name) throw badInput(`${local.fileName} has no name in its header: add "${local.header.prefix}name: <Name>".`);
  return name;
}

/** The text with its header's `name` line naming `name` instead. */
export function renamed(local: LocalScript, name: string): string {
  const entry = local.header.entries.find((e) => e.key === 'name');
  if (!entry) return local.code;
  const lines = local.code.split('\n');
  const line = lines[entry.line];
  lines[entry.line] = line.slice(0, entry.valueStart) + name + line.slice(entry.valueStart + entry.value.length).replace(/^[^\r]*/, '');
  return lines.join('\n');
}

/** What the routes save: the code and what the header declares (the server reads the header too). */
async function entityOf(api: DatagrokApi, local: LocalScript, name: string, signal?: AbortSignal): Promise<Partial<ScriptEntity> & { name: string }> {
  const code = renamed(local, name);
  if (kindOf(local) === 'script') {
    return { '#type': 'Script', name, language: scriptLanguage(local.header, local.fileName), script: code, description: local.header.value('description') ?? '' };
  }
  const connectionName = local.header.value('connection');
  if (!connectionName) throw badInput(`The query ${name} names no connection: add "--connection: <Connection>" to its header.`);
  const connections = await api.listDataConnections(undefined, { signal });
  const lower = connectionName.toLowerCase();
  const connection = connections.find((c) => c.nqName.toLowerCase() === lower || c.name.toLowerCase() === lower || c.nqName.toLowerCase().endsWith(`:${lower}`));
  if (!connection) throw badInput(`The server has no connection "${connectionName}" for the query ${name}: fix "--connection:" in its header.`);
  return {
    '#type': 'DataQuery',
    name,
    query: code,
    connection: { id: connection.id, name: connection.name, nqName: connection.nqName },
    description: local.header.value('description') ?? '',
  };
}

/** What a call names: the saved entity's `Namespace:Name`. */
export function callName(saved: ScriptEntity): string {
  if (saved.nqName?.includes(':')) return saved.nqName;
  if (saved.namespace) return `${saved.namespace.replace(/:$/, '')}:${saved.name}`;
  return saved.nqName ?? saved.name;
}

export interface PushPlan {
  kind: ScriptKind;
  name: string;
  action: 'create' | 'update';
  /** The saved one an update replaces. */
  existing?: ScriptEntity;
}

/** Whether pushing creates a script or updates the one the server has under the header's name. */
export async function pushPlan(api: DatagrokApi, local: LocalScript, signal?: AbortSignal): Promise<PushPlan> {
  const name = headerName(local);
  const kind = kindOf(local);
  const found = await api.listScripts(kind, name, { signal });
  const existing = found.find((e) => e.name.toLowerCase() === name.toLowerCase());
  return { kind, name, action: existing ? 'update' : 'create', existing };
}

/** Saves the script as the plan says; the saved entity. */
export async function pushScript(api: DatagrokApi, local: LocalScript, plan: PushPlan, signal?: AbortSignal): Promise<ScriptEntity> {
  const entity = await entityOf(api, local, plan.name, signal);
  return api.saveScript(plan.kind, plan.existing ? { ...entity, id: plan.existing.id } : entity, { signal });
}

/** A name no one else's script has: the header's name, a mark and random letters. */
export function temporaryName(name: string): string {
  return `${name.replace(/[^\w]/g, '_')}_vscode_run_${randomBytes(4).toString('hex')}`;
}

/** Whether a function name is one {@link temporaryName} made (the copy is deleted after its run). */
export function isTemporaryName(name: string): boolean {
  return /_vscode_run_[0-9a-f]{8}$/.test(name);
}

/**
 * Saves the text as a temporary script, gives `work` its call name, and deletes it afterwards, also
 * when `work` fails or is cancelled. The saved function of the header's name is never touched.
 */
export async function withTemporaryScript<T>(
  api: DatagrokApi,
  local: LocalScript,
  work: (callName: string, saved: ScriptEntity) => Promise<T>,
  signal?: AbortSignal,
  /** Told when the temporary copy could not be deleted (it is then left on the server under that name). */
  leftBehind?: (name: string, error: unknown) => void,
): Promise<{ result: T; temporary: string }> {
  const temporary = temporaryName(headerName(local));
  const saved = await api.saveScript(kindOf(local), await entityOf(api, local, temporary, signal), { signal });
  try {
    return { result: await work(callName(saved), saved), temporary };
  } finally {
    // Not with the run's signal: a cancelled run must still leave nothing behind.
    await api.deleteScript(kindOf(local), saved.id).catch((e: unknown) => leftBehind?.(callName(saved), e));
  }
}
