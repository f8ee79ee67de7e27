// The user's files as the MCP server reads them: only inside the workspace folders it was given
// (DATAGROK_WORKSPACE_FOLDERS or --workspace), paths absolute or relative to the first of them. Started
// without a folder it reads no local file. No editors here: a CSV is always a file on disk, streamed
// when pushed.
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { badInput } from '../../api/errors';
import { confine } from '../../platform/confinement';
import { defaultTableName } from '../../platform/tables/names';
import type { LocalCsv, LocalFiles, LocalText } from '../operations';

const MAX_PARAMETER_FILE = 1024 * 1024;

/** The workspace folders from the environment's value (a JSON array, or paths joined by the platform's delimiter) and --workspace arguments. */
export function workspaceFolders(env: string | undefined, argv: readonly string[]): string[] {
  const folders: string[] = [];
  if (env) {
    if (env.trim().startsWith('[')) {
      const parsed: unknown = JSON.parse(env);
      if (Array.isArray(parsed)) folders.push(...parsed.filter((f): f is string => typeof f === 'string'));
    } else {
      folders.push(...env.split(path.delimiter));
    }
  }
  argv.forEach((arg, i) => {
    if (arg === '--workspace' && argv[i + 1]) folders.push(argv[i + 1]);
    else if (arg.startsWith('--workspace=')) folders.push(arg.slice('--workspace='.length));
  });
  return folders.filter((f) => f.trim() !== '' && path.isAbsolute(f)).map((f) => path.resolve(f));
}

export class NodeFiles implements LocalFiles {
  constructor(
    readonly roots: readonly string[],
    readonly trusted: boolean,
  ) {}

  private resolve(p: string, base?: string): Promise<string> {
    if (!this.trusted) {
      throw badInput(`Refused to read "${p}": this workspace is not trusted. Trust the workspace in VS Code, or run the file from the editor and confirm there.`);
    }
    return confine(p, this.roots, base);
  }

  private async checkedFile(file: string, what: string): Promise<number> {
    let size: number;
    try {
      const s = await stat(file);
      if (s.isDirectory()) throw badInput(`${what} is a folder, not a file.`);
      size = s.size;
    } catch (e) {
      if (e instanceof Error && 'code' in e) throw badInput(`${what} cannot be read: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : e.message}.`);
      throw e;
    }
    return size;
  }

  async csv(p: string | undefined, base?: string): Promise<LocalCsv> {
    if (p === undefined) throw badInput('"file" is required here: the path of the CSV file (relative to the workspace folder, or absolute inside it).');
    const file = await this.resolve(p, base);
    const what = `"${path.basename(p)}"`;
    await this.checkedFile(file, what);
    return { source: { file }, what, defaultName: defaultTableName(path.basename(p)) };
  }

  async text(p: string): Promise<LocalText> {
    const file = await this.resolve(p);
    const what = `"${path.basename(p)}"`;
    const size = await this.checkedFile(file, what);
    if (size > MAX_PARAMETER_FILE) throw badInput(`${what} is ${size} bytes: a parameter file is at most 1 MB.`);
    return { text: await readFile(file, 'utf8'), what, dir: path.dirname(file) };
  }
}
