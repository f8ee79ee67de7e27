// A run of a script whose code raised: the server answers the call with a server error (500) whose text
// is the script's error, and that is the script's fault, not the server's. Told as such — the script's
// name (never the temporary copy's), the error, the line when the text names one — without the advice a
// failing server gets. The line: "line N" in the text (the emulator: `Error in python script X, line 6:
// NameError: …`), or a Python traceback's innermost frame in the script (`File "<string>", line 6`). No vscode.
import { DatagrokError } from '../../api/errors';

export interface ScriptNames {
  /** The script's own name (the header's). */
  name: string;
  /** The name it was called by (a temporary copy's), replaced by `name` wherever it appears. */
  called?: string;
  fileName?: string;
}

export interface RaisedError {
  /** The error as the script raised it (`NameError: name 'x' is not defined`). */
  text: string;
  /** 1-based, in the script's whole text (header included), when the server's text names it. */
  line?: number;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The error and its line, read from the server's text about a script run. */
export function readRaised(serverText: string, names: ScriptNames): RaisedError {
  let text = names.called ? serverText.split(names.called).join(names.name) : serverText;
  let line: number | undefined;
  // A Python traceback: the innermost frame that is the script's own code (not a library's).
  const own = new RegExp(
    `^(<[^>]*>|.*(${[names.name, names.fileName]
      .filter(Boolean)
      .map((n) => escaped(n as string))
      .join('|')}).*)$`,
  );
  for (const m of text.matchAll(/File "([^"]*)", line (\d+)/g)) if (own.test(m[1])) line = Number(m[2]);
  if (/Traceback \(most recent call last\)/.test(text)) {
    const last = /([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b:?.*)$/.exec(text.replace(/^[\s\S]*File "[^"]*", line \d+(?:, in [^\s]+)?/, ''));
    if (last) text = last[1].trim();
  }
  const stated = /^Error in [\w ]*script [^,:]+(?:, line (\d+))?:\s*([\s\S]*)$/i.exec(text);
  if (stated) {
    line ??= stated[1] ? Number(stated[1]) : undefined;
    text = stated[2];
  }
  line ??= ((m) => (m ? Number(m[1]) : undefined))(/\bline (\d+)\b/i.exec(text));
  return { text: text.trim().replace(/\.$/, ''), line };
}

/**
 * The failure of a script's call when the script itself raised (a server error, 5xx, with the server's
 * text): the script's error with its line, and no advice about the server. Undefined for any other
 * failure (refused inputs, a missing script, an unreachable server: those keep their own words).
 */
export function scriptRaised(error: unknown, names: ScriptNames): DatagrokError | undefined {
  if (!(error instanceof DatagrokError) || error.kind !== 'server' || !error.serverMessage) return undefined;
  if (error.status !== undefined && error.status < 500) return undefined;
  const raised = readRaised(error.serverMessage, names);
  const where = raised.line ? ` on line ${raised.line}${names.fileName ? ` of ${names.fileName}` : ''}` : '';
  const message = `${names.name}: the script raised an error${where}: ${raised.text}. Fix the script and run it again.`;
  return new DatagrokError('server', message, { ...error.details, cause: error });
}
