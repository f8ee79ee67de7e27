// Tasks of type `datagrok`, per package in the workspace (recognition.ts): *build* (the package's own
// `build` script with the package manager its lockfile names, no shell of one OS; the files its errors
// name made absolute, so `$datagrok-build` finds them in a package in a subfolder), *publish*
// (a debug version to the active server) and *publish release*. A publish task prints grok check's findings
// as `file:line:column: severity: message [rule]` (the `$datagrok-check` problem matcher reads them) and stops
// on an error with nothing uploaded; then it publishes and verifies as datagrok.packages.publish does.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hostOf } from '../api/names';
import { checkPackage } from '../platform/packages/check';
import { runBuild } from '../platform/packages/publish/build';
import { BuildOutputPaths } from '../platform/packages/publish/buildOutput';
import { readManifest } from '../platform/packages/publish/manifest';
import { publishPackageFolder } from '../platform/packages/publish/publish';
import { findPackageFolders, isPackageFolder } from '../platform/packages/recognition';
import type { Services } from '../services';

export const TASK_TYPE = 'datagrok';
type Action = 'build' | 'publish' | 'publishRelease';
const ACTIONS: Record<Action, string> = { build: 'build', publish: 'publish', publishRelease: 'publish release' };

interface DatagrokTaskDefinition extends vscode.TaskDefinition {
  action: Action;
  /** The package's folder, relative to its workspace folder ('.' for the workspace folder itself). */
  package: string;
}

const RED = '\x1b[31m';
const GREEN = '\x1b[32m';
const RESET = '\x1b[0m';

/**
 * A task's run in its terminal: what it writes (line ends as a terminal wants them), its exit code; the
 * task's Stop aborts it. A build's output goes through BuildOutputPaths, so the problem matcher finds the
 * files of a package in a subfolder.
 */
abstract class TaskTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;
  protected readonly abort = new AbortController();

  constructor(protected readonly folder: string) {}

  protected write(text: string): void {
    this.written.fire(text.replace(/\r?\n/g, '\r\n'));
  }

  protected line(text: string): void {
    this.write(`${text}\n`);
  }

  /** Writes a build's output, a problem's file made absolute; call `end()` of the result when it is done. */
  protected buildOutput(): BuildOutputPaths {
    return new BuildOutputPaths(this.folder, (text) => this.write(text));
  }

  open(): void {
    void this.run().then(
      (code) => this.closed.fire(code),
      (e: unknown) => {
        if (!this.abort.signal.aborted) this.line(`${RED}${e instanceof Error ? e.message : String(e)}${RESET}`);
        this.closed.fire(1);
      },
    );
  }

  close(): void {
    this.abort.abort();
  }

  protected abstract run(): Promise<number>;
}

/** The package's own build (runBuild: its lockfile's manager, no shell of one OS). */
class BuildTerminal extends TaskTerminal {
  protected async run(): Promise<number> {
    const manifest = readManifest(this.folder);
    const output = this.buildOutput();
    let command: string;
    try {
      ({ command } = await runBuild(this.folder, manifest.scripts, { signal: this.abort.signal, onOutput: (text) => output.push(text) }));
    } finally {
      output.end();
    }
    this.line(`${GREEN}${command} finished in ${this.folder}${RESET}`);
    return 0;
  }
}

/** A publish run: check findings in the matcher's format, stages, the build's output, the outcome. */
class PublishTerminal extends TaskTerminal {
  constructor(
    private readonly services: Services,
    folder: string,
    private readonly release: boolean,
  ) {
    super(folder);
  }

  protected async run(): Promise<number> {
    const name = readManifest(this.folder).npmName;
    this.line(`Checking ${name} (grok check's rules)`);
    const errors = checkPackage(this.folder).findings.filter((f) => {
      this.line(`${path.join(this.folder, f.file)}:${f.line}:${(f.start ?? 0) + 1}: ${f.severity}: ${f.message} [${f.rule}]`);
      return f.severity === 'error';
    });
    if (errors.length) {
      this.line(`${RED}grok check found ${errors.length} error${errors.length === 1 ? '' : 's'}: nothing was published. Fix them and run the task again.${RESET}`);
      return 1;
    }
    const url = this.services.connection.baseUrl();
    const client = await this.services.connection.clientFor(url);
    let shown = 0;
    const output = this.buildOutput();
    try {
      const r = await publishPackageFolder(client, {
        folder: this.folder,
        release: this.release,
        signal: this.abort.signal,
        onStage: (s, detail) => {
          output.end();
          this.line(`${detail}${s === 'upload' ? ` to ${hostOf(url)}` : ''}`);
        },
        onOutput: (text) => output.push(text),
        onProgress: (p) => {
          const pct = p.total ? Math.floor((p.bytes / p.total) * 4) * 25 : 0;
          if (pct <= shown) return;
          shown = pct;
          this.line(`  ${pct}% of ${p.total} bytes`);
        },
      });
      this.line(`${GREEN}Published ${r.name} ${r.version}${r.debug ? ' (debug)' : ''} to ${hostOf(url)}: the server lists ${r.functions.join(', ')}${RESET}`);
      return 0;
    } finally {
      output.end();
    }
  }
}

/** The package's npm name (what the task list shows), else its folder's name. */
function nameOf(folder: string): string {
  try {
    return readManifest(folder).npmName;
  } catch {
    return path.basename(folder);
  }
}

export class PackageTaskProvider implements vscode.TaskProvider {
  constructor(private readonly services: Services) {}

  provideTasks(): vscode.Task[] {
    const tasks: vscode.Task[] = [];
    for (const ws of vscode.workspace.workspaceFolders ?? []) {
      if (ws.uri.scheme !== 'file') continue;
      for (const folder of findPackageFolders(ws.uri.fsPath)) {
        const rel = path.relative(ws.uri.fsPath, folder).split(path.sep).join('/') || '.';
        for (const action of Object.keys(ACTIONS) as Action[]) {
          const task = this.make({ type: TASK_TYPE, action, package: rel }, ws);
          if (task) tasks.push(task);
        }
      }
    }
    return tasks;
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const ws = task.scope !== undefined && typeof task.scope === 'object' ? task.scope : vscode.workspace.workspaceFolders?.[0];
    return ws ? this.make(task.definition as DatagrokTaskDefinition, ws) : undefined;
  }

  private make(def: DatagrokTaskDefinition, ws: vscode.WorkspaceFolder): vscode.Task | undefined {
    if (!(def.action in ACTIONS) || typeof def.package !== 'string') return undefined;
    const folder = path.resolve(ws.uri.fsPath, def.package);
    if (!isPackageFolder(folder)) return undefined;
    const label = `${ACTIONS[def.action]} ${nameOf(folder)}`;
    if (def.action === 'build') {
      const task = new vscode.Task(def, ws, label, TASK_TYPE, new vscode.CustomExecution(async () => new BuildTerminal(folder)), ['$datagrok-build']);
      task.group = vscode.TaskGroup.Build;
      return task;
    }
    const release = def.action === 'publishRelease';
    const execution = new vscode.CustomExecution(async () => new PublishTerminal(this.services, folder, release));
    const task = new vscode.Task(def, ws, label, TASK_TYPE, execution, ['$datagrok-check', '$datagrok-build']);
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, clear: true };
    return task;
  }
}
