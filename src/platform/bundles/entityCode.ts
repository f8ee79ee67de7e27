// A script's or query's code inside its bundle file (grok's format: a Script's `script`, a DataQuery's `query`),
// read out as text in its language and written back as that one JSON string: the rest of the file stays byte for
// byte as it was (its other keys, their order, its indentation, no final newline added). Pure: no vscode.
import type { ParseError } from 'jsonc-parser';
import { jsoncParser } from '../lazyModules';
import { type Json, TYPES } from './registry';
import { codeOf } from './states';

export interface EntityCode {
  /** The entity type (`Script`, `DataQuery`). */
  type: string;
  /** The key holding the code. */
  key: string;
  /** The file extension its language reads best with (`py`, `R`, `sql`…). */
  ext: string;
  code: string;
}

/** The code on disk is no longer what the editor started from: a save would overwrite a change nobody saw. */
export class CodeChangedOnDisk extends Error {
  override readonly name = 'CodeChangedOnDisk';
}

const fileName = (file: string) => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);

/** The folder a bundle files an entity under (`Script/…`, `DataQuery/…`): its type when the JSON has no `#type`. */
function folderType(file: string): string {
  const parts = file.split(/[\\/]/);
  const folder = parts.length > 1 ? parts[parts.length - 2] : '';
  return TYPES[folder] ? folder : '';
}

function parseEntity(text: string, file: string): Json {
  const { parse, printParseErrorCode } = jsoncParser();
  const errors: ParseError[] = [];
  const json = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const line = text.slice(0, errors[0].offset).split('\n').length;
    throw new Error(`${fileName(file)} is not valid JSON (${printParseErrorCode(errors[0].error)} on line ${line}): fix it, then open its code again.`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${fileName(file)} is not a bundle entity (a JSON object).`);
  return json as Json;
}

/** The entity's code, or a clear refusal: a file that is not a script or a query has none. */
export function entityCode(text: string, file: string): EntityCode {
  const json = parseEntity(text, file);
  const type = typeof json['#type'] === 'string' ? json['#type'] : folderType(file);
  const field = codeOf(type, json);
  if (!field) throw new Error(`${fileName(file)} is ${type ? `a ${type}` : 'no bundle entity'}, not a script or a query: it has no code to open.`);
  const code = json[field.key] ?? '';
  if (typeof code !== 'string') throw new Error(`${fileName(file)}: its "${field.key}" is not text, so it cannot be opened as code. Fix the file or pull it again.`);
  return { type, key: field.key, ext: field.ext, code };
}

/**
 * The text with the top-level string `key` set to `value`: only that string's characters change (the edit is
 * jsonc-parser's, unformatted). A key the object lacks is added after the last one, indented as the file is.
 */
export function withStringField(text: string, key: string, value: string): string {
  const { applyEdits, findNodeAtLocation, modify, parseTree } = jsoncParser();
  const root = parseTree(text);
  if (root && findNodeAtLocation(root, [key])) return applyEdits(text, modify(text, [key], value, {}));
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const formattingOptions = { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 4 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
  return applyEdits(text, modify(text, [key], value, { formattingOptions }));
}

/**
 * The file's text with its code replaced by `code`, provided the code on disk is still `base` (what the editor
 * loaded; undefined: not known here, the caller checked otherwise): another change to the code is refused
 * (CodeChangedOnDisk), never overwritten. Changes to the file's other keys are kept as they are on disk: only the
 * code string is written.
 */
export function withCode(text: string, file: string, base: string | undefined, code: string): string {
  const now = entityCode(text, file);
  if (base !== undefined && now.code !== base) {
    throw new CodeChangedOnDisk(
      `${fileName(file)} changed on disk since its ${now.key === 'query' ? 'query' : 'code'} was opened here: saving would overwrite that change, so nothing was saved.`,
    );
  }
  return now.code === code ? text : withStringField(text, now.key, code);
}
