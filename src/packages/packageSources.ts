// Which documents get the annotation language: the JS/TS files under `src/` of a recognised package (and
// a root `package.js`), and their functions parsed once per version of the document.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { PackageFunction } from '../platform/packages/functionModel';
import { packageFunctions } from '../platform/packages/packageFunctions';

export const PACKAGE_SOURCE_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', language: 'typescript' },
  { scheme: 'file', language: 'javascript' },
];

export class PackageSources {
  private readonly parsed = new WeakMap<vscode.TextDocument, { version: number; functions: PackageFunction[] }>();

  constructor(private readonly packageOf: (uri: vscode.Uri) => string | undefined) {}

  /** The document's path relative to its package, when it is a source file of one. */
  relativePath(document: vscode.TextDocument): string | undefined {
    if (document.uri.scheme !== 'file' || !/\.(ts|js)$/.test(document.uri.path)) return undefined;
    const folder = this.packageOf(document.uri);
    if (!folder) return undefined;
    const rel = path.relative(folder, document.uri.fsPath).split(path.sep).join('/');
    return rel.startsWith('src/') || rel === 'package.js' ? rel : undefined;
  }

  isSource(document: vscode.TextDocument): boolean {
    return this.relativePath(document) !== undefined;
  }

  /** The document's package functions (none when it is no package source). */
  functions(document: vscode.TextDocument): PackageFunction[] {
    if (!this.isSource(document)) return [];
    const known = this.parsed.get(document);
    if (known && known.version === document.version) return known.functions;
    const functions = packageFunctions(document.getText());
    this.parsed.set(document, { version: document.version, functions });
    return functions;
  }
}
