// The catalog as the language features ask it (parameter files, notebook call cells): never an error.
// Signed out, an unreachable server or an unknown function all answer "nothing known"; offline, the
// catalog's last answer is used. No vscode.
import { isDatagrokError } from '../../api/errors';
import type { FuncInfo } from '../../api/types';
import type { Catalog } from './catalog';

/** What a lookup needs: whether someone is signed in, and the catalog (Services has both). */
export interface SignatureSource {
  readonly connection: { readonly isSignedIn: boolean };
  readonly platform: { readonly catalog: Catalog };
}

/** Why a function name is not acceptable (`Package:Name`), or undefined when it is. */
export function functionNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'Enter the function as Package:Name, e.g. Demo:Add.';
  if (/[\s/\\]/.test(name.trim())) return 'A function name cannot contain spaces, "/" or "\\": use Package:Name.';
  if (!/^[^:]+(:[^:]+)+$/.test(name.trim())) return 'Name the function with its package: Package:Name, e.g. Demo:Add.';
  return undefined;
}

/** The function's signature (cached by the catalog), or undefined when it cannot be known now. */
export async function signatureOf(source: SignatureSource, name: string): Promise<FuncInfo | undefined> {
  return (await lookUpFunction(source, name)).func;
}

/**
 * The function's signature, or `missing` when the server says it has no such function (only then is a
 * name known to be wrong); neither when it cannot be known now (signed out, unreachable, a bad name).
 */
export async function lookUpFunction(source: SignatureSource, name: string): Promise<{ func?: FuncInfo; missing?: boolean }> {
  if (!source.connection.isSignedIn || functionNameProblem(name)) return {};
  try {
    return { func: await source.platform.catalog.funcOrLastKnown(name.trim()) };
  } catch (e) {
    return isDatagrokError(e, 'notFound') ? { missing: true } : {};
  }
}

/** Every function of the server (cached by the catalog); empty when signed out or unreachable. */
export async function allFunctions(source: SignatureSource): Promise<FuncInfo[]> {
  if (!source.connection.isSignedIn) return [];
  try {
    return await source.platform.catalog.allFunctionsOrLastKnown();
  } catch {
    return [];
  }
}
