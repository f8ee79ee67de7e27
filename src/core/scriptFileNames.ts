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

/** The Datagrok notebook's file extension: its cells are scripts and queries by their language. */
const NOTEBOOK_EXTENSION = 'dgnb';

/** The Datagrok notebook's script and query cells, by language (completion and hover; no Run lens: the notebook runs them). */
export const SCRIPT_CELL_SELECTOR: vscode.DocumentSelector = Object.keys(PREFIX_OF_LANGUAGE).map((language) => ({ notebookType: 'datagrok-notebook', language }));

/** Whether the document is a cell of a Datagrok notebook (its header needs no name: the notebook names it). */
export function isNotebookCell(uri: { scheme: string; path: string }): boolean {
  return uri.scheme === 'vscode-notebook-cell' && uri.path.toLowerCase().endsWith(`.${NOTEBOOK_EXTENSION}`);
}

/** The comment prefix of a document that may be a script, by its file name (untitled: its language). */
export function scriptPrefix(languageId: string, path: string): CommentPrefix | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : undefined;
  // A notebook's cell (its path is the notebook's): by the cell's language, as an untitled editor.
  return extension && extension !== NOTEBOOK_EXTENSION ? PREFIX_OF_EXTENSION[extension] : PREFIX_OF_LANGUAGE[languageId];
}

/** Cheaply: whether the text's first lines may be a Datagrok header (no full parse). */
export function mayBeScript(languageId: string, path: string, text: () => string): boolean {
  const prefix = scriptPrefix(languageId, path);
  if (!prefix) return false;
  const head = text().slice(0, 4000);
  const escaped = prefix.replace(/[/]/g, '\\/');
  return new RegExp(`^\\s*${escaped}\\s*(name|language|input|output|connection)\\s*:`, 'm').test(head);
}
