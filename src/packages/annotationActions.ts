// Code actions of a package's function annotations: the quick fix of a finding when the fix is certain (a
// key, type, decorator or option close to a known one; an input renamed to the parameter it misspells;
// the missing `//input:` of a parameter), and the refactors Convert to decorator / Convert to comment
// annotations of the function at the cursor (offered disabled, with the reason, when the conversion
// would change what the function declares).
import * as vscode from 'vscode';
import type { PackageFunction } from '../platform/packages/functionModel';
import type { Finding } from '../platform/packages/findings';
import { toComments } from '../platform/packages/toComments';
import { toDecorator } from '../platform/packages/toDecorator';
import type { PackageSources } from './packageSources';

export const CONVERT_KIND = vscode.CodeActionKind.RefactorRewrite.append('datagrok');
export const ANNOTATION_ACTION_KINDS = [vscode.CodeActionKind.QuickFix, CONVERT_KIND];

export class AnnotationActionProvider implements vscode.CodeActionProvider {
  /** `findings`: the findings of one source file's text, with their fixes (check.ts `checkSource`). */
  constructor(
    private readonly sources: PackageSources,
    private readonly findings: (document: vscode.TextDocument) => Finding[],
  ) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!this.sources.isSource(document)) return [];
    const actions: vscode.CodeAction[] = [];
    const wants = (kind: vscode.CodeActionKind) => !context.only || context.only.contains(kind) || kind.contains(context.only);
    if (wants(vscode.CodeActionKind.QuickFix) && context.diagnostics.length > 0) actions.push(...this.fixes(document, context.diagnostics));
    if (wants(CONVERT_KIND)) {
      const f = this.sources.functions(document).find((x) => range.start.line >= x.firstLine && range.start.line <= x.declared.line);
      if (f) actions.push(this.conversion(document, f));
    }
    return actions;
  }

  private fixes(document: vscode.TextDocument, diagnostics: readonly vscode.Diagnostic[]): vscode.CodeAction[] {
    const withFixes = this.findings(document).filter((f) => f.fix);
    const actions: vscode.CodeAction[] = [];
    for (const d of diagnostics) {
      const finding = withFixes.find((f) => f.rule === d.code && f.line - 1 === d.range.start.line && (f.start ?? d.range.start.character) === d.range.start.character);
      if (!finding?.fix) continue;
      const action = new vscode.CodeAction(finding.fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      for (const e of finding.fix.edits) action.edit.replace(document.uri, new vscode.Range(e.line, e.start, e.line, e.end), e.text);
      action.diagnostics = [d];
      action.isPreferred = true;
      actions.push(action);
    }
    return actions;
  }

  private conversion(document: vscode.TextDocument, f: PackageFunction): vscode.CodeAction {
    const toDeco = f.form === 'comment';
    const title = toDeco ? 'Convert to decorator' : 'Convert to comment annotations';
    const action = new vscode.CodeAction(title, CONVERT_KIND);
    const result = (toDeco ? toDecorator : toComments)(document.getText(), f);
    if ('refused' in result) {
      action.disabled = { reason: `${f.name} cannot be converted: ${result.refused}.` };
      return action;
    }
    action.edit = new vscode.WorkspaceEdit();
    for (const e of result.edits) action.edit.replace(document.uri, new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.text);
    return action;
  }
}
