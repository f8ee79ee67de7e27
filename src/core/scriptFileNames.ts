// What makes a document a Datagrok script or query, cheaply (no parser): its file name's extension (an
// untitled editor: its language) and a header line among its first lines. The extension's entry checks it
// before it loads the features (src/start/parameterFileWatch.ts); src/platform/scripts/header.ts parses.
import type * as vscode from 'vscode';

type CommentPrefix = '#' | '//' | '--';
const PREFIX_OF_EXTENSION: Record<string, CommentPrefix> = { py: '#', r: '#', jl: '#', m: '#', js: '//', sql: '--' };
const PREFIX_OF_LANGUAGE: Record<string, CommentPrefix> = { python: '#', r: '#', julia: '#', octave: '#', matlab: '#', javascript: '//', sql: '--' };

export const SCRIPT_FILE_PATTERN = '**/*.{py,R,r,js,jl,m,sql}';

/** Where the script features apply: the files by name, and untitled editors by language. */
export const SCRIPT_FILE_SELECTOR: vscode.DocumentSelector = [
  { pattern: SCRIPT_FILE_PATTERN },
  ...Object.keys(PREFIX_OF_LANGUAGE).map((language) => ({ scheme: 'untitled', language })),
];

/** The comment prefix of a document that may be a script, by its file name (untitled: its language). */
export function scriptPrefix(languageId: string, path: string): CommentPrefix | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.includes('.') ? PREFIX_OF_EXTENSION[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] : PREFIX_OF_LANGUAGE[languageId];
}

/** Cheaply: whether the text's first lines may be a Datagrok header (no full parse). */
export function mayBeScript(languageId: string, path: string, text: () => string): boolean {
  const prefix = scriptPrefix(languageId, path);
  if (!prefix) return false;
  const head = text().slice(0, 4000);
  const escaped = prefix.replace(/[/]/g, '\\/');
  return new RegExp(`^\\s*${escaped}\\s*(name|language|input|output|connection)\\s*:`, 'm').test(head);
}
