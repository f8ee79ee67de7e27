// What the agents suites share (agents.test.ts: the language-model tools; agentsMcp.test.ts: the MCP
// server definition): invoking a tool as vscode.lm does, reading its question, the test window's folder.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';

export const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const token = () => new vscode.CancellationTokenSource().token;

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => (part as { value?: unknown }).value)
    .filter((v): v is string => typeof v === 'string')
    .join('');
}

export async function invoke(name: string, input: object): Promise<string> {
  return textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token()));
}

export function markdown(message: string | vscode.MarkdownString | undefined): string {
  return typeof message === 'string' ? message : (message?.value ?? '');
}

export function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  assert.ok(folder, 'the test window has a folder on disk');
  return folder.uri.fsPath;
}

export async function api(): Promise<DatagrokExtensionApi> {
  return (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
}
