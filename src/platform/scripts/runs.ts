// What a ▶ Run on Datagrok ran, remembered with its run so Run Again can run that text again: the
// script's file, its name and comment prefix, and its text. While a temporary copy is called, its call
// name maps to the source, so whoever remembers the run (the Runs store) can find what it ran. No vscode.
import type { ScriptEntity } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';
import { badInput } from '../../api/errors';
import { type CommentPrefix, parseScriptHeader } from './header';
import { type LocalScript, withTemporaryScript } from './entities';

export interface ScriptSource {
  /** The script's URI (as text): a file, or an untitled editor's. */
  uri: string;
  fileName: string;
  prefix: CommentPrefix;
  /** The whole text that ran, header included. */
  code: string;
}

/** The sources of the temporary scripts being called now, by call name. */
export class ScriptRunSources {
  private readonly running = new Map<string, ScriptSource>();

  /** The source a call name runs, while it runs. */
  get(callName: string): ScriptSource | undefined {
    return this.running.get(callName);
  }

  /**
   * Saves `source` as a temporary script (see withTemporaryScript), calls `work` with its call name while
   * the name maps to the source, and deletes the copy afterwards whatever happens.
   */
  async run<T>(
    api: DatagrokApi,
    source: ScriptSource,
    work: (callName: string, saved: ScriptEntity) => Promise<T>,
    leftBehind?: (name: string, error: unknown) => void,
  ): Promise<{ result: T; temporary: string }> {
    return withTemporaryScript(
      api,
      localScriptOf(source),
      async (callName, saved) => {
        this.running.set(callName, source);
        try {
          return await work(callName, saved);
        } finally {
          this.running.delete(callName);
        }
      },
      undefined,
      leftBehind,
    );
  }
}

/** The script a remembered source is: its header parsed again; bad input when it has none. */
export function localScriptOf(source: ScriptSource): LocalScript {
  const header = parseScriptHeader(source.code, source.prefix);
  if (!header) throw badInput(`The text of ${source.fileName} that was run has no Datagrok header.`);
  return { header, code: source.code, fileName: source.fileName };
}

/** How a run of a script's text is shown: the header's name (not the temporary copy's) and its outputs' names, in order. */
export function scriptRunLabel(source: ScriptSource): { name: string; outputs: string[] } {
  const header = parseScriptHeader(source.code, source.prefix);
  const name = header?.value('name') ?? source.fileName.replace(/\.[^.]+$/, '');
  return { name, outputs: (header?.outputs ?? []).map((p) => p.name).filter(Boolean) };
}
