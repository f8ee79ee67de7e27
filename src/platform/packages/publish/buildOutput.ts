// A build's output as VS Code's problem matcher reads it. A build prints the files it complains about
// relative to the package's folder (tsc's `src/package.ts(3,5): error TS2322: …`, webpack's `ERROR in
// src/…`), and a contributed matcher cannot know a task's folder (it resolves them against the workspace
// folder: a package in `packages/Chem` would send the user to a file that does not exist). So each such line
// is passed on with its file made absolute; every other line as it came. No vscode.
import * as path from 'node:path';

/** What `$datagrok-build` matches (package.json), with the file apart: the prefix, the file, the rest. */
const PROBLEM = /^(\s*(?:ERROR in |WARNING in )?)(.+?\.[jt]sx?)([(:]\d+[,:]\d+\)?:?\s+-?\s*(?:error|warning)\b.*)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what is stripped
const ANSI = /\x1b\[[0-9;]*m/g;

/** One line with its problem's file made absolute (against `folder`); undefined when it names no problem. */
export function absoluteProblemLine(line: string, folder: string): string | undefined {
  const plain = line.replace(ANSI, '');
  const m = PROBLEM.exec(plain);
  if (!m) return undefined;
  const file = m[2].replace(/^\.\//, '');
  return path.isAbsolute(file) ? undefined : `${m[1]}${path.resolve(folder, file)}${m[3]}`;
}

/**
 * Passes a build's output on in the chunks it comes in, lines that name a problem with the file made
 * absolute. A line split across chunks is held until its end comes (or `end()`).
 */
export class BuildOutputPaths {
  private pending = '';

  constructor(
    private readonly folder: string,
    private readonly write: (text: string) => void,
  ) {}

  push(chunk: string): void {
    const text = this.pending + chunk;
    const last = text.lastIndexOf('\n');
    this.pending = text.slice(last + 1);
    if (last >= 0) this.write(this.rewrite(text.slice(0, last + 1)));
  }

  end(): void {
    if (this.pending) this.write(this.rewrite(this.pending));
    this.pending = '';
  }

  private rewrite(text: string): string {
    return text
      .split('\n')
      .map((line) => {
        const cr = line.endsWith('\r') ? '\r' : '';
        return (cr ? absoluteProblemLine(line.slice(0, -1), this.folder) : absoluteProblemLine(line, this.folder))?.concat(cr) ?? line;
      })
      .join('\n');
  }
}
