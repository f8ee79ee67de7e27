import * as vscode from 'vscode';
import type { RequestLogEntry } from '../api/types';

/** The "Datagrok" output channel: one line per HTTP request and per failed command. Never the key. */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Datagrok', { log: true });
}

export function logRequest(log: vscode.LogOutputChannel, e: RequestLogEntry): void {
  const status = e.status === undefined ? (e.error ?? 'no response') : String(e.status);
  const retry = e.attempt > 1 ? ` (attempt ${e.attempt})` : '';
  const line = `${e.method} ${e.path} → ${status} in ${Math.round(e.durationMs)} ms${retry}`;
  if (e.error && e.error !== 'cancelled') {
    log.warn(line);
  } else {
    log.info(line);
  }
}
