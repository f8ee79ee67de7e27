// The one command layer every command of the extension goes through: it tells apart how a command
// was invoked, runs long work under a cancellable progress, logs, and turns failures into one
// notification with actions (or, for programmatic calls, a rejected promise with a clear message).
import * as vscode from 'vscode';
import { DatagrokError } from '../api/errors';
import { type ProgressReporter, withCancellableProgress } from './progress';
import { walkthroughContextOf } from './walkthroughSteps';

export interface CommandInvocation<T> {
  /**
   * The argument the command was invoked with: undefined from the palette, a tree node or `Uri`
   * from a menu, or an options object from a script, task, keybinding or test.
   */
  readonly arg: unknown;
  /** Set when the command was called with a plain options object: it must never wait on the user. */
  readonly options: T | undefined;
  /** True when the command may ask the user (palette, menus); false when called with options. */
  readonly interactive: boolean;
  /**
   * Runs work under a cancellable progress notification; cancelling aborts the signal. For a
   * programmatic call the progress is shown too (it does not wait on the user).
   */
  withProgress<R>(title: string, work: (progress: ProgressReporter, signal: AbortSignal) => Promise<R>): Promise<R>;
}

export type CommandHandler<T> = (invocation: CommandInvocation<T>) => Promise<unknown>;

/** Thrown (or returned through) when the user dismissed a prompt: ends the command quietly. */
export class UserCancelled extends Error {
  override readonly name = 'UserCancelled';
  constructor() {
    super('Cancelled by the user.');
  }
}

/** An action a feature attaches to its error (e.g. "Pick a Table…"): offered instead of Open Settings. */
export interface ErrorAction {
  title: string;
  run(): unknown;
}

const ERROR_ACTIONS = Symbol('datagrokErrorActions');

/** Attaches actions to an error the command layer will show; returns the error. */
export function withErrorActions<E extends Error>(error: E, actions: ErrorAction[]): E {
  (error as E & { [ERROR_ACTIONS]?: ErrorAction[] })[ERROR_ACTIONS] = actions;
  return error;
}

function errorActionsOf(error: unknown): ErrorAction[] {
  return (error instanceof Error && (error as Error & { [ERROR_ACTIONS]?: ErrorAction[] })[ERROR_ACTIONS]) || [];
}

/** Marks a call from our own UI (a CodeLens, a notification button): it may ask the user. */
const FROM_UI = Object.freeze({ datagrokFromUi: true });

/** Arguments for a command run from our own UI with a `Uri` or item, so it stays interactive. */
export function uiArguments(arg: unknown): unknown[] {
  return [arg, FROM_UI];
}

/** What a notebook's toolbar hands its command (`{ ui: true, notebookEditor, source }`): a click, not options. */
function isNotebookToolbarArgument(arg: object): boolean {
  return 'notebookEditor' in arg && (arg as { ui?: unknown }).ui === true;
}

function isOptionsObject(arg: unknown): boolean {
  if (arg === null || typeof arg !== 'object' || Array.isArray(arg) || isNotebookToolbarArgument(arg)) {
    return false;
  }
  const proto = Object.getPrototypeOf(arg);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether the active server has a key, and its host for the message; commands run from the palette or a
 * menu while signed out offer Sign In first and continue after it.
 */
export interface SignInGate {
  readonly signedIn: () => Promise<boolean>;
  readonly host: () => string;
  /** The error a command called with options rejects with while signed out (the connection's own). */
  readonly notSignedIn: () => Error;
}

/** Options that name a server of their own: a connector file's `datagrok:` Uri, or `server`. */
function namesOwnServer(options: unknown): boolean {
  const o = options as { uri?: unknown; server?: unknown } | undefined;
  return (o?.uri instanceof vscode.Uri && o.uri.scheme === 'datagrok') || (typeof o?.server === 'string' && o.server.trim() !== '');
}

/** Commands that work without a key (the connection's own) or name their own server (connector paths). */
const WITHOUT_SIGN_IN = new Set([
  'datagrok.signIn',
  'datagrok.dataView.open',
  'datagrok.signOut',
  'datagrok.switchServer',
  'datagrok.showLog',
  'datagrok.copyId',
  'datagrok.files.copyPath',
  'datagrok.python.copySnippet',
  'datagrok.terminal.useInTerminals',
  'datagrok.bundle.openCode',
  'datagrok.packages.check',
  'datagrok.packages.refresh',
  'datagrok.packages.showMore',
  'datagrok.notebooks.new',
  'datagrok.notebooks.saveOutputs',
  'datagrok.notebooks.showVariables',
  'datagrok.notebooks.exportJupyter',
]);

export class CommandLayer {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    /** Runs the sign-in flow; offered on 401. */
    private readonly signInCommand = 'datagrok.signIn',
    private readonly gate?: SignInGate,
    /** Binds a command id to its callback: VS Code's registry, or the stand-in made at activation. */
    private readonly bind: (id: string, callback: (...args: unknown[]) => unknown) => vscode.Disposable = vscode.commands.registerCommand,
  ) {}

  register<T = never>(id: string, handler: CommandHandler<T>): vscode.Disposable {
    return this.bind(id, (...args: unknown[]) => this.run(id, handler, args));
  }

  private async run<T>(id: string, handler: CommandHandler<T>, args: unknown[]): Promise<unknown> {
    const arg = args[0];
    // Menus pass a second argument (the explorer its selection, the editor title its group); a script's
    // `executeCommand(id, uri)` passes the Uri alone, and must not wait on the user.
    const programmatic = isOptionsObject(arg) || (arg instanceof vscode.Uri && args.length === 1);
    const invocation: CommandInvocation<T> = {
      arg,
      // A Uri alone stands for `{ uri }` (the contract's commands that take a Uri name it so).
      options: programmatic ? ((arg instanceof vscode.Uri ? { uri: arg } : arg) as T) : undefined,
      interactive: !programmatic,
      withProgress: withCancellableProgress,
    };
    try {
      if (programmatic) await this.refuseSignedOut(id, invocation.options);
      else if (!(await this.signedInFirst(id, arg))) return undefined;
      const result = await handler(invocation);
      // The walkthrough's step of this command, ticked now that it has succeeded.
      const step = walkthroughContextOf(id, result);
      if (step) void vscode.commands.executeCommand('setContext', step, true);
      return result;
    } catch (error) {
      if (error instanceof UserCancelled || (error instanceof DatagrokError && error.kind === 'cancelled')) {
        this.log.info(`${id}: cancelled`);
        if (programmatic) {
          throw error;
        }
        return undefined;
      }
      const message = error instanceof Error ? error.message : String(error);
      this.log.error(`${id} failed: ${message}`);
      this.showError(message, error, () => this.run(id, handler, args), programmatic);
      if (programmatic) {
        throw error instanceof Error ? error : new Error(message);
      }
      return undefined;
    }
  }

  /**
   * From the palette or a menu while signed out: offers Sign In (awaited: the user started this) and
   * says whether to go on. A connector file's `Uri` names its own server, so it is not gated here.
   */
  private async signedInFirst(id: string, arg: unknown): Promise<boolean> {
    if (!this.gate || WITHOUT_SIGN_IN.has(id) || (await this.gate.signedIn())) return true;
    if (arg instanceof vscode.Uri && arg.scheme === 'datagrok') return true;
    const choice = await vscode.window.showWarningMessage(`You are not signed in to ${this.gate.host()}. Sign in first; the command then continues.`, 'Sign In');
    if (choice !== 'Sign In') throw new UserCancelled();
    const user = await vscode.commands.executeCommand(this.signInCommand);
    if (user === undefined) throw new UserCancelled();
    this.log.info(`${id}: signed in, continuing`);
    return true;
  }

  /**
   * Called with options while signed out: a command that needs the server rejects with the sign-in
   * message before it runs, so none can answer from what an earlier session loaded. Options naming their
   * own server (a connector file's `Uri`, `server`) are left to that server's key.
   */
  private async refuseSignedOut(id: string, options: unknown): Promise<void> {
    if (!this.gate || WITHOUT_SIGN_IN.has(id) || namesOwnServer(options) || (await this.gate.signedIn())) return;
    throw this.gate.notSignedIn();
  }

  /** Shows the error with the actions that fit its kind; never awaited, so callers never wait on the user. */
  private showError(message: string, error: unknown, retry: () => Promise<unknown>, programmatic: boolean): void {
    const kind = error instanceof DatagrokError ? error.kind : undefined;
    const own = programmatic ? [] : errorActionsOf(error);
    const actions: string[] = own.map((a) => a.title);
    if (kind === 'unauthorized') {
      actions.push('Sign In');
    }
    if (!programmatic && (kind === 'unavailable' || kind === 'network' || kind === 'timeout')) {
      actions.push('Retry');
    }
    // A feature's own fix (a missing table: Pick a Table…) says more than the settings would.
    if (own.length === 0 && (kind === 'unavailable' || kind === 'network' || kind === 'notFound' || kind === 'timeout')) {
      actions.push('Open Settings');
    }
    actions.push('Show Log');
    void vscode.window.showErrorMessage(message, ...actions).then((choice) => {
      const chosen = own.find((a) => a.title === choice);
      if (chosen) return chosen.run();
      switch (choice) {
        case 'Sign In':
          // Started from the palette or a menu, the command continues once signed in; a script's call has already failed.
          return vscode.commands.executeCommand(this.signInCommand).then((user) => (user !== undefined && !programmatic ? retry() : undefined));
        case 'Retry':
          return retry();
        case 'Open Settings':
          return vscode.commands.executeCommand('workbench.action.openSettings', 'datagrok.');
        case 'Show Log':
          return this.log.show(true);
      }
      return undefined;
    });
  }
}
