// Composition root: builds the shared services and lets each feature register itself.
import * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
