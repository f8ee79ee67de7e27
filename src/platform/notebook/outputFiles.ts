// Where a notebook's table outputs keep their rows: one CSV file per output in a folder of this extension
// host's own (`<root>/<pid>-<random>`), so windows sharing the storage never delete each other's. The
// folder goes when the extension host stops; a folder whose process is gone (a crash, a killed window) is
// swept at the next start. No vscode.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds that pid now; its folder is not ours to judge.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class OutputFiles {
  readonly dir: string;

  constructor(readonly root: string) {
    this.dir = path.join(root, `${process.pid}-${randomUUID().slice(0, 8)}`);
  }

  /** A new output's id and the path of its file (not written yet). */
  async reserve(): Promise<{ id: string; file: string }> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const id = randomUUID();
    return { id, file: this.file(id) };
  }

  /** Writes an output's CSV text to a new file; resolves with its id and path. */
  async write(text: string): Promise<{ id: string; file: string }> {
    const reserved = await this.reserve();
    await fs.promises.writeFile(reserved.file, text);
    return reserved;
  }

  /** The file of an output id (ids are UUIDs this class made: nothing else is ever read). */
  file(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`Not a notebook output id: ${JSON.stringify(id)}`);
    return path.join(this.dir, `${id}.csv`);
  }

  async remove(id: string): Promise<void> {
    await fs.promises.rm(this.file(id), { force: true });
  }

  /** Removes the folders of extension hosts that are gone (what a crash or a killed window left). */
  async sweep(): Promise<string[]> {
    const names = await fs.promises.readdir(this.root).catch(() => [] as string[]);
    const gone = names.filter((name) => {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      return path.join(this.root, name) !== this.dir && (!Number.isSafeInteger(pid) || !alive(pid));
    });
    await Promise.all(gone.map((name) => fs.promises.rm(path.join(this.root, name), { recursive: true, force: true })));
    return gone;
  }

  /** Removes this extension host's folder (every output file it wrote). */
  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
