// The user's files as the MCP server reads them: paths absolute or relative to its working directory
// (the first workspace folder). No editors here: a CSV is always a file on disk, streamed when pushed.
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { badInput } from '../../api/errors';
import { defaultTableName } from '../../platform/tableName';
import type { LocalCsv, LocalFiles, LocalText } from '../operations';

const MAX_PARAMETER_FILE = 1024 * 1024;

export class NodeFiles implements LocalFiles {
  constructor(
    private readonly root: string,
    readonly trusted: boolean,
  ) {}

  private resolve(p: string, base?: string): string {
    if (!this.trusted) {
      throw badInput(`Refused to read "${p}": this workspace is not trusted. Trust the workspace in VS Code, or run the file from the editor and confirm there.`);
    }
    return path.resolve(base ?? this.root, p);
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
    if (p === undefined) throw badInput('"file" is required here: the path of the CSV file (absolute or relative to the workspace folder).');
    const file = this.resolve(p, base);
    const what = `"${path.basename(file)}"`;
    await this.checkedFile(file, what);
    return { source: { file }, what, defaultName: defaultTableName(path.basename(file)) };
  }

  async text(p: string): Promise<LocalText> {
    const file = this.resolve(p);
    const what = `"${path.basename(file)}"`;
    const size = await this.checkedFile(file, what);
    if (size > MAX_PARAMETER_FILE) throw badInput(`${what} is ${size} bytes: a parameter file is at most 1 MB.`);
    return { text: await readFile(file, 'utf8'), what, dir: path.dirname(file) };
  }
}
