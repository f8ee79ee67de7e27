// The Runs view: the active server's remembered runs, newest first — function, parameter file, when,
// how long, outcome and result summary — with their actions in the context menu and inline.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import type { RunsStore, StoredRun } from '../platform/runs/store';
import { ExplorerNode, ExplorerTree } from '../ui/explorerTree';
import { type ScriptSource, scriptRunLabel } from '../platform/scripts/runs';
import { inputsSummary } from './resultLabels';

export const RUNS_VIEW = 'datagrok.runs';
const { None } = vscode.TreeItemCollapsibleState;

/** `just now`, `5 min ago`, `3 h ago`, else the date and time. */
export function when(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 24 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function fileLabel(run: StoredRun): string | undefined {
  if (!run.file) return run.script?.fileName;
  try {
    return path.posix.basename(vscode.Uri.parse(run.file, true).path);
  } catch {
    return undefined;
  }
}

/** The run's inputs when kept inline (large ones live in a file: the tooltip does not read it). */
function inlineInputs(run: StoredRun): Record<string, unknown> | undefined {
  if (!('inline' in run.inputs)) return undefined;
  try {
    const value: unknown = JSON.parse(run.inputs.inline);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What a run is called where the user sees it: a script's text run by the script's name (not its temporary copy's). */
export function runLabel(run: StoredRun): string {
  const script = run.script;
  if (!script) return run.functionName;
  // A long text is kept in a file of its own: then the file's name says which script it was.
  return 'inline' in script.code ? scriptRunLabel({ ...script, code: script.code.inline }).name : script.fileName.replace(/\.[^.]+$/, '');
}

/** The text a script's run ran, when it was one and its text is still kept. */
export async function scriptOfRun(store: RunsStore, run: StoredRun): Promise<ScriptSource | undefined> {
  if (!run.script) return undefined;
  const got = await store.script(run);
  return 'value' in got ? got.value : undefined;
}

const ICONS = {
  ok: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  cancelled: new vscode.ThemeIcon('circle-slash'),
};

/** One run. `contextValue`: `datagrok.run.<outcome>[.result][.file]`. */
export class RunNode extends ExplorerNode {
  constructor(readonly run: StoredRun) {
    super(`run:${run.id}`, undefined);
  }

  get hasResult(): boolean {
    return this.run.outcome === 'ok' && this.run.result !== undefined && !('dropped' in this.run.result);
  }

  treeItem(): vscode.TreeItem {
    const { run } = this;
    const item = this.item(runLabel(run), None);
    const file = fileLabel(run);
    item.description = [file, when(run.startedAt), duration(run.durationMs), run.outcome === 'ok' ? `→ ${run.summary}` : run.outcome === 'failed' ? 'failed' : 'cancelled']
      .filter(Boolean)
      .join(' · ');
    item.iconPath = ICONS[run.outcome];
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${runLabel(run)}** — ${run.outcome === 'ok' ? 'succeeded' : run.outcome === 'failed' ? 'failed' : 'cancelled'}\n\n`);
    md.appendText(`Started ${new Date(run.startedAt).toLocaleString('en-US')}, took ${duration(run.durationMs)}\n`);
    // Where the user knows it: the path in the workspace (a file outside it: its path, not a file:// URI).
    const inWorkspace = (value: string) => {
      const uri = vscode.Uri.parse(value, true);
      return uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri) : uri.toString(true);
    };
    if (run.file && file) md.appendText(`Parameter file: ${inWorkspace(run.file)}\n`);
    if (run.script) md.appendText(`Script run before saving: ${inWorkspace(run.script.uri)} (Run Again runs the text that ran)\n`);
    const inputs = inlineInputs(run);
    if (inputs) md.appendText(`Inputs: ${inputsSummary(inputs, 200)}\n`);
    md.appendText(run.outcome === 'failed' ? `\nError: ${run.summary}` : run.outcome === 'ok' ? `\nResult: ${run.summary}` : '');
    if (run.result && 'dropped' in run.result) md.appendText(`\n${run.result.dropped}`);
    item.tooltip = md;
    item.contextValue = `datagrok.run.${run.outcome}${this.hasResult ? '.result' : ''}${run.file ? '.file' : ''}`;
    if (this.hasResult) item.command = { title: 'Open Result', command: 'datagrok.runs.openResult', arguments: [this] };
    item.accessibilityInformation = { label: `${runLabel(run)}, ${run.outcome}, ${when(run.startedAt)}: ${run.summary}` };
    return item;
  }
}

export function createRunsTree(store: RunsStore, connection: Connection, log: vscode.LogOutputChannel): ExplorerTree {
  const baseUrl = () => connection.baseUrl();
  return new ExplorerTree({
    view: RUNS_VIEW,
    log,
    baseUrl,
    // Runs are remembered on this machine: shown signed in or not (Run Again offers Sign In).
    signedIn: () => true,
    roots: async () => {
      let server: string;
      try {
        server = baseUrl();
      } catch {
        return [];
      }
      return store.list(server).map((r) => new RunNode(r));
    },
  });
}
