import * as vscode from 'vscode';
import type { RequestLogEntry } from '../api/types';

/**
 * The "Datagrok" output channel: one line per HTTP request and per failed command. Never the key. Made
 * on first use (a line written, Show Log), not at activation: an extension that has logged nothing has
 * no channel yet.
 */
export function createLog(): vscode.LogOutputChannel {
  let channel: vscode.LogOutputChannel | undefined;
  const real = () => {
    channel ??= vscode.window.createOutputChannel('Datagrok', { log: true });
    return channel;
  };
  return new Proxy({} as vscode.LogOutputChannel, {
    get(_, key) {
      if (key === 'dispose') return () => channel?.dispose();
      const value: unknown = Reflect.get(real(), key);
      return typeof value === 'function' ? value.bind(channel) : value;
    },
  });
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
