// Reading the options object a script passes to a command (`executeCommand(id, { ... })`).
import * as vscode from 'vscode';
import { badInput } from '../api/errors';

/**
 * An optional text option, trimmed: undefined when absent or null, '' when blank (the caller decides
 * whether blank means "absent" or is an error); anything but text is bad input.
 */
export function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badInput(`${name} must be text.`);
  return value.trim();
}

/**
 * A Uri from an options field: a Uri (or its JSON form), a URI string with a scheme, or a path (relative
 * to the first workspace folder). Undefined when absent.
 */
export function uriOption(value: unknown, field: string): vscode.Uri | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof vscode.Uri) return value;
  if (typeof value === 'object' && typeof (value as { scheme?: unknown }).scheme === 'string') {
    return vscode.Uri.from(value as { scheme: string; path?: string; authority?: string; query?: string; fragment?: string });
  }
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^[a-zA-Z][\w+.-]+:/.test(value) && !/^[a-zA-Z]:[\\/]/.test(value)) return vscode.Uri.parse(value, true);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const isAbsolute = value.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(value);
    if (!isAbsolute && folder) return vscode.Uri.joinPath(folder, value);
    return vscode.Uri.file(value);
  }
  throw badInput(`The option "${field}" must be a Uri, a URI string or a file path.`);
}

/** A file on disk from an options field or a dialog: as uriOption, required, and a file: Uri. */
export function fileUriOption(value: unknown, field: string): vscode.Uri {
  const uri = uriOption(value, field);
  if (!uri) throw badInput(`Give the ${field} as a file Uri (or a path).`);
  if (uri.scheme !== 'file') throw badInput(`The ${field} must be a file on disk (a file: Uri), not ${uri.scheme}:.`);
  return uri;
}
