// Run Again of a script's text run before saving (▶ Run on Datagrok): its temporary copy was deleted
// after the run, so the text the run remembered goes up again as a new temporary copy, is called with
// the same inputs, and is deleted afterwards. The script's file may have changed since: the user is told,
// and what ran then runs again (the editor's current text is ▶ Run on Datagrok's job).
import * as vscode from 'vscode';
import { badInput, DatagrokError } from '../api/errors';
import { scriptText } from '../core/scriptFiles';
import type { RunsStore, StoredRun } from '../platform/runs/store';
import { localScriptOf } from '../platform/scripts/runs';
import type { Services } from '../services';

/** Why the file is not the text that ran, or undefined when it still is. */
async function changedSince(uri: vscode.Uri, code: string): Promise<string | undefined> {
  try {
    return (await scriptText(uri)) === code ? undefined : 'has changed since that run';
  } catch {
    return uri.scheme === 'untitled' ? 'is closed' : 'is gone (moved or deleted)';
  }
}

/** Runs the remembered text again as a new temporary script; `call` runs a function by name with the run's inputs. */
export async function runScriptAgain(services: Services, store: RunsStore, run: StoredRun, call: (functionName: string) => Promise<unknown>): Promise<unknown> {
  const got = await store.script(run);
  if ('missing' in got) {
    throw badInput(
      `${run.functionName} was a script's text run before saving (▶ Run on Datagrok), and that text was not kept: ${got.missing} Run the script again from its editor.`,
    );
  }
  const source = got.value;
  const uri = vscode.Uri.parse(source.uri, true);
  const changed = await changedSince(uri, source.code);
  if (changed) {
    const note = `${source.fileName} ${changed}: Run Again runs the text that was run then (▶ Run on Datagrok in its editor runs the current text).`;
    services.log.info(note);
    void vscode.window.showInformationMessage(note);
  }
  const client = await services.connection.client();
  let temporary = '';
  try {
    const ran = await services.platform.scriptRuns.run(
      client,
      source,
      (callName) => {
        temporary = callName.replace(/^.*:/, '');
        services.log.info(`Running ${source.fileName} again (as run ${run.startedAt}) as the temporary script ${callName}`);
        return call(callName);
      },
      (left, e) => {
        const message = `The temporary script ${left} could not be deleted from the server (${e instanceof Error ? e.message : String(e)}): delete it in Datagrok.`;
        services.log.warn(message);
        void vscode.window.showWarningMessage(message);
      },
    );
    return ran.result;
  } catch (error) {
    // The temporary name means nothing to the user: its messages name the script's own name.
    const name = localScriptOf(source).header.value('name');
    if (!temporary || !name || !(error instanceof Error) || !error.message.includes(temporary)) throw error;
    const message = error.message.split(temporary).join(name);
    throw error instanceof DatagrokError ? new DatagrokError(error.kind, message, { cause: error }) : new Error(message);
  }
}
