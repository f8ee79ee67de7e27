// The function a parameter file names, with its signature, for completion, hover and diagnostics. Never
// an error (src/platform/functions/lookups.ts: the catalog as the language features ask it).
import type * as vscode from 'vscode';
import type { FuncInfo } from '../api/types';
import { readScriptHeader, resolveScriptUri } from '../core/scriptFiles';
import { headerSignature } from '../platform/scripts/signature';
import { signatureOf } from '../platform/functions/lookups';
import type { Services } from '../services';
import { declaredFunction, declaredScript } from './parameterFile';

export { allFunctions, signatureOf } from '../platform/functions/lookups';

export type SignatureSource = Pick<Services, 'connection' | 'platform'>;

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
