// grok check's findings in the Problems panel: when a file of a Datagrok package is opened or saved, the
// whole package is checked (src/platform/packages/check.ts, debounced) and each finding becomes a
// diagnostic on its file and line (source `grok check`, or `Datagrok` for the annotation rules grok does
// not have; code the rule id), for the package's other files too (package.json, .npmignore, CHANGELOG.md,
// webpack.config.js…). As a source file is edited, its own findings (imports, annotations) and the
// package's duplicate names follow each pause in typing, without a walk of the package
// (check.ts `recheckSource`). What the editor cannot check is shown as information beside them.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { KeyedDebounce } from '../core/debounce';
import { checkPackage, checkSource, type PackageCheck, recheckSource } from '../platform/packages/check';
import { EDITOR_RULES, type Finding } from '../platform/packages/findings';
import { packageFolderOf } from '../platform/packages/recognition';

export const DIAGNOSTIC_SOURCE = 'grok check';
export const ANNOTATION_SOURCE = 'Datagrok';
const DEBOUNCE_MS = 300;
const TYPING_DEBOUNCE_MS = 200;

export class PackageDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('datagrok-packages');
  private readonly debounce = new KeyedDebounce(DEBOUNCE_MS);
  private readonly typing = new KeyedDebounce(TYPING_DEBOUNCE_MS);
  /** The last check of each package, kept up to date as its source files are edited. */
  private readonly last = new Map<string, PackageCheck>();
  /** The files each package's last check put diagnostics on (cleared by the next check). */
  private readonly published = new Map<string, vscode.Uri[]>();
  /** The package of each folder seen (undefined: none), until a package.json is saved. */
  private readonly packageOfDir = new Map<string, string | undefined>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly log: vscode.LogOutputChannel) {
    const shown = () => {
      for (const editor of vscode.window.visibleTextEditors) this.schedule(editor.document);
    };
    this.subscriptions = [
      vscode.window.onDidChangeVisibleTextEditors(shown),
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.edited(e.document);
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (path.basename(d.uri.fsPath) === 'package.json') this.packageOfDir.clear();
        this.schedule(d);
      }),
    ];
    shown();
  }

  /** The package a document belongs to, when it is a file of one. */
  packageOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    const dir = path.dirname(uri.fsPath);
    if (!this.packageOfDir.has(dir)) this.packageOfDir.set(dir, packageFolderOf(uri.fsPath));
    return this.packageOfDir.get(dir);
  }

  private schedule(document: vscode.TextDocument): void {
    const folder = this.packageOf(document.uri);
    if (!folder || document.uri.fsPath.split(path.sep).includes('node_modules')) return;
    this.debounce.schedule(folder, () => {
      try {
        this.check(folder);
      } catch (error) {
        this.log.error(`grok check of ${folder} failed: ${(error as Error).message}`);
      }
    });
  }

  /** The package and path of a document that is one of the source files its last check read. */
  private sourceOf(document: vscode.TextDocument): { folder: string; file: string } | undefined {
    const folder = this.packageOf(document.uri);
    if (!folder) return undefined;
    const file = path.relative(folder, document.uri.fsPath).split(path.sep).join('/');
    return this.last.get(folder)?.sourceFiles.has(file) ? { folder, file } : undefined;
  }

  /** After a pause in typing: the edited file's findings again (the whole package when it has no check yet). */
  private edited(document: vscode.TextDocument): void {
    const folder = this.packageOf(document.uri);
    if (!folder) return;
    if (!this.last.has(folder)) {
      this.schedule(document);
      return;
    }
    this.typing.schedule(document.uri.toString(), () => {
      const source = this.sourceOf(document);
      const last = source && this.last.get(source.folder);
      if (!source || !last || document.isClosed) return;
      const next = recheckSource(last, source.file, document.getText());
      this.last.set(source.folder, next);
      this.publish(next);
    });
  }

  /** The findings of a source file's text as the editor has it (with their fixes), for the quick fixes. */
  sourceFindings(document: vscode.TextDocument): Finding[] {
    const source = this.sourceOf(document);
    const last = source && this.last.get(source.folder);
    return source && last ? checkSource(source.file, document.getText(), last.sources).findings : [];
  }

  /** Checks the package in `folder` now (open documents as the editor has them) and shows its findings. */
  check(folder: string): Finding[] {
    const opened = new Map<string, string>();
    for (const d of vscode.workspace.textDocuments) {
      const rel = path.relative(folder, d.uri.fsPath);
      if (d.uri.scheme === 'file' && d.isDirty && !rel.startsWith('..') && !path.isAbsolute(rel)) opened.set(rel.split(path.sep).join('/'), d.getText());
    }
    const started = performance.now();
    const result = checkPackage(folder, opened);
    this.log.info(`grok check of ${path.basename(folder)}: ${result.findings.length} finding(s) in ${(performance.now() - started).toFixed(0)} ms`);
    this.last.set(folder, result);
    this.publish(result);
    return result.findings;
  }

  private publish(result: PackageCheck): void {
    const { folder } = result;
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const lines = new Map<string, string[]>();
    const lineOf = (file: string, line: number) => {
      if (!lines.has(file)) lines.set(file, fileLines(folder, file));
      return lines.get(file)?.[line] ?? '';
    };
    for (const f of [...result.findings, ...result.notes.map((n) => ({ ...n, note: true }))]) {
      const list = byFile.get(f.file) ?? [];
      list.push(diagnostic(f, lineOf(f.file, Math.max(0, f.line - 1)), 'note' in f));
      byFile.set(f.file, list);
    }
    for (const uri of this.published.get(folder) ?? []) this.collection.delete(uri);
    const uris = [...byFile].map(([file, diagnostics]) => {
      const uri = vscode.Uri.file(path.join(folder, ...file.split('/')));
      this.collection.set(uri, diagnostics);
      return uri;
    });
    this.published.set(folder, uris);
  }

  dispose(): void {
    this.debounce.dispose();
    this.typing.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

function diagnostic(f: Finding, text: string, note: boolean): vscode.Diagnostic {
  const line = Math.max(0, f.line - 1);
  const start = f.start ?? text.length - text.trimStart().length;
  const end = f.end ?? Math.max(start + 1, text.trimEnd().length);
  const severity = note ? vscode.DiagnosticSeverity.Information : f.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
  const d = new vscode.Diagnostic(new vscode.Range(line, start, line, end), f.message, severity);
  d.source = EDITOR_RULES.has(f.rule) ? ANNOTATION_SOURCE : DIAGNOSTIC_SOURCE;
  d.code = note ? `${f.rule} (not checked)` : f.rule;
  return d;
}

/** A package file's lines, as the editor has them (open) or on disk; none when it is missing. */
function fileLines(folder: string, file: string): string[] {
  const uri = vscode.Uri.file(path.join(folder, ...file.split('/')));
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  try {
    return (open ? open.getText() : readFileSync(uri.fsPath, 'utf8')).split(/\r?\n/);
  } catch {
    return [];
  }
}
