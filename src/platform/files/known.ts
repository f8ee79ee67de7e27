// The files of a connector this workspace has seen (opened, saved, created, uploaded), per server and
// connector, kept in the workspace state so they survive restarts. When the server cannot list
// folders, a mounted folder shows these: never an invented entry, only files that existed here.
import type { KeyValueStore } from '../session';

const PREFIX = 'datagrok.files.known:';
/** Per connector; the oldest are forgotten first. */
const MAX_FILES = 2000;

export class KnownFiles {
  constructor(private readonly memento: KeyValueStore) {}

  private key(baseUrl: string, connector: string): string {
    return `${PREFIX}${baseUrl}|${connector}`;
  }

  list(baseUrl: string, connector: string): readonly string[] {
    return this.memento.get<string[]>(this.key(baseUrl, connector), []);
  }

  has(baseUrl: string, connector: string, path: string): boolean {
    return this.list(baseUrl, connector).includes(path);
  }

  async add(baseUrl: string, connector: string, path: string): Promise<void> {
    const files = this.list(baseUrl, connector);
    if (files.at(-1) === path) return;
    const next = [...files.filter((p) => p !== path), path].slice(-MAX_FILES);
    await this.memento.update(this.key(baseUrl, connector), next);
  }

  async remove(baseUrl: string, connector: string, path: string): Promise<void> {
    const files = this.list(baseUrl, connector);
    if (!files.includes(path)) return;
    await this.memento.update(
      this.key(baseUrl, connector),
      files.filter((p) => p !== path),
    );
  }

  /** Whether a known file lies below that folder ('' is the root). */
  isFolder(baseUrl: string, connector: string, dir: string): boolean {
    const prefix = dir ? `${dir}/` : '';
    return this.list(baseUrl, connector).some((p) => p.startsWith(prefix) && p.length > prefix.length);
  }

  /** The direct children of a folder: known files in it and the folders that lead to deeper ones. */
  children(baseUrl: string, connector: string, dir: string): { name: string; isFile: boolean }[] {
    const prefix = dir ? `${dir}/` : '';
    const out = new Map<string, boolean>();
    for (const p of this.list(baseUrl, connector)) {
      if (!p.startsWith(prefix) || p.length === prefix.length) continue;
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) {
        if (!out.has(rest)) out.set(rest, true);
      } else {
        out.set(rest.slice(0, slash), false);
      }
    }
    return [...out].sort(([a], [b]) => a.localeCompare(b)).map(([name, isFile]) => ({ name, isFile }));
  }
}
