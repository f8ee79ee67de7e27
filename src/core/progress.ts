import * as vscode from 'vscode';
import type { TransferProgress } from '../api/types';
import { formatBytes } from '../api/units';

/** Reports work to a progress notification; byte transfers show "x of y" and advance the bar. */
export class ProgressReporter {
  private reportedPercent = 0;

  constructor(private readonly progress: vscode.Progress<{ message?: string; increment?: number }>) {}

  message(message: string): void {
    this.progress.report({ message });
  }

  /** Pass as `onProgress` of a transfer. */
  readonly bytes = (p: TransferProgress): void => {
    if (p.total && p.total > 0) {
      const percent = Math.min(100, (p.bytes / p.total) * 100);
      const increment = percent - this.reportedPercent;
      this.reportedPercent = percent;
      this.progress.report({ message: `${formatBytes(p.bytes)} of ${formatBytes(p.total)}`, increment });
    } else {
      this.progress.report({ message: formatBytes(p.bytes) });
    }
  };
}

/**
 * Runs work under a cancellable progress notification. Cancelling aborts the signal handed to the
 * work, which hands it to the API client.
 */
export function withCancellableProgress<T>(title: string, work: (progress: ProgressReporter, signal: AbortSignal) => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        return await work(new ProgressReporter(progress), controller.signal);
      } finally {
        subscription.dispose();
      }
    }),
  );
}
