// The operations as language-model tools (vscode.lm.registerTool): read-only ones run at once; the ones
// that change the server answer prepareInvocation with confirmationMessages naming every change, so the
// editor asks the user first (in a chat: inline; outside one, VS Code shows a modal dialog).
import * as vscode from 'vscode';
import { errorMessage } from './operations/errors';
import { type Operation, type OperationContext, OPERATIONS } from './operations';

function abortSignal(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

export class OperationTool implements vscode.LanguageModelTool<object> {
  constructor(
    readonly operation: Operation,
    private readonly ctx: OperationContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<object>): Promise<vscode.PreparedToolInvocation> {
    const op = this.operation;
    if (!op.confirm) return { invocationMessage: op.title };
    let asked: { title: string; message: string };
    try {
      asked = await op.confirm(this.ctx, options.input);
    } catch (e) {
      // Bad input or not signed in: nothing to confirm, nothing will run.
      throw new Error(errorMessage(e));
    }
    return { invocationMessage: asked.title.replace(/\?$/, '…'), confirmationMessages: { title: asked.title, message: new vscode.MarkdownString(asked.message) } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<object>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const started = Date.now();
    try {
      const text = await this.operation.run(this.ctx, options.input, abortSignal(token));
      this.log.info(`Agent tool ${this.operation.name} answered in ${Date.now() - started} ms (${text.length} characters)`);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    } catch (e) {
      const message = errorMessage(e);
      this.log.warn(`Agent tool ${this.operation.name} failed: ${message}`);
      // The message reaches the model, which tells the user.
      throw new Error(message);
    }
  }
}

/** Registers every operation as a tool; returns them by name (the extension's test API exposes them). */
export function registerTools(
  ctx: OperationContext,
  log: vscode.LogOutputChannel,
  subscriptions: vscode.Disposable[],
  register: (name: string, tool: OperationTool) => vscode.Disposable = vscode.lm.registerTool,
): ReadonlyMap<string, OperationTool> {
  const tools = new Map<string, OperationTool>();
  for (const op of OPERATIONS) {
    const tool = new OperationTool(op, ctx, log);
    tools.set(op.name, tool);
    subscriptions.push(register(op.name, tool));
  }
  return tools;
}
