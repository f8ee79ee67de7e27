// The function a parameter file names, with its signature, for completion, hover and diagnostics. Never
// an error: signed out, an unreachable server or an unknown function all answer "nothing known". Offline,
// the catalog's last answer is used.
import type * as vscode from 'vscode';
import type { FuncInfo } from '../api/types';
import { readScriptHeader, resolveScriptUri } from '../core/scriptFiles';
import { headerSignature } from '../platform/scripts/signature';
import type { Services } from '../services';
import { declaredFunction, declaredScript, functionNameProblem } from './parameterFile';

export type SignatureSource = Pick<Services, 'connection' | 'platform'>;

/** The function's signature (cached by the catalog), or undefined when it cannot be known now. */
export async function signatureOf(source: SignatureSource, name: string): Promise<FuncInfo | undefined> {
  if (!source.connection.isSignedIn || functionNameProblem(name)) return undefined;
  try {
    return await source.platform.catalog.funcOrLastKnown(name.trim());
  } catch {
    return undefined;
  }
}

/** The signature a local script's header declares (`$script`), known before the script is on the server. */
export async function scriptSignature(file: vscode.Uri | undefined, path: string): Promise<FuncInfo | undefined> {
  try {
    const uri = resolveScriptUri(file, path);
    const header = await readScriptHeader(uri);
    return header ? headerSignature(header, uri.path.slice(uri.path.lastIndexOf('/') + 1)) : undefined;
  } catch {
    return undefined;
  }
}

/** The signature of the function the text's `$function` names, or of the local script its `$script` names. */
export async function declaredSignature(source: SignatureSource, text: string, file?: vscode.Uri): Promise<FuncInfo | undefined> {
  const script = declaredScript(text);
  if (script) return scriptSignature(file, script.path);
  const declared = declaredFunction(text);
  return declared ? signatureOf(source, declared.name) : undefined;
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
