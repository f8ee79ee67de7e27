// A script or query cell as the server runs it: a temporary script (the header gets a name, and a
// language, when it has none), called, and deleted whatever happens. Lines the server names are told as
// lines of the cell. No vscode.
import { randomBytes } from 'node:crypto';
import { badInput } from '../../api/errors';
import type { LocalScript } from '../scripts/entities';
import { type CommentPrefix, parseScriptHeader } from '../scripts/header';
import { headerProblems } from '../scripts/signature';
import { scriptExtension } from './cells';

/** The comment prefix of a script or query cell's header, by the cell's language. */
export const PREFIX: Record<string, CommentPrefix> = { python: '#', r: '#', julia: '#', octave: '#', javascript: '//', sql: '--' };

export interface CellScript {
  local: LocalScript;
  /** The header lines added to the cell's text: where (0-based) and how many. */
  added: { at: number; count: number };
}

/** The cell's line (1-based) of a line of the text sent (1-based): the added header lines taken out. */
export function cellLine(script: CellScript, sentLine: number): number {
  const { at, count } = script.added;
  return sentLine > at + count ? sentLine - count : Math.min(sentLine, at + 1);
}

/** The script a cell's text is; a cell in a language the server cannot run, or a bad header: bad input. */
export function cellScript(language: string, text: string, cellNumber: number): CellScript {
  const prefix = PREFIX[language];
  if (!prefix) throw badInput(`Cell ${cellNumber}: Datagrok runs no ${language} cells (scripts: ${Object.keys(PREFIX).join(', ')}).`);
  const fileName = `cell ${cellNumber}.${scriptExtension(language)}`;
  const own = parseScriptHeader(text, prefix);
  const lines = text.split('\n');
  const at = own ? own.firstLine : 0;
  const added: string[] = [];
  // A unique name: the temporary copy's name is made from it, and two notebooks may run at once.
  if (!own?.value('name')) added.push(`${prefix}name: NotebookCell${cellNumber}_${randomBytes(3).toString('hex')}`);
  if (!own?.value('language') && language !== 'sql') added.push(`${prefix}language: ${language}`);
  lines.splice(at, 0, ...added);
  const code = lines.join('\n');
  const header = parseScriptHeader(code, prefix);
  if (!header) throw badInput(`Cell ${cellNumber}: its text could not be read as a Datagrok ${language === 'sql' ? 'query' : 'script'}.`);
  const script: CellScript = { local: { header, code, fileName }, added: { at, count: added.length } };
  const errors = headerProblems(header).filter((p) => p.severity === 'error');
  if (errors.length > 0) throw badInput(`Cell ${cellNumber}, line ${cellLine(script, errors[0].line + 1)}: ${errors[0].message}`);
  return script;
}
