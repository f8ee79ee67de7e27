// Makes an API client with the user's settings: timeouts, the answer size limit, the request log and the
// network route (proxy, certificates).
import * as vscode from 'vscode';
import type { DatagrokApi } from '../api/datagrokApi';
import { logRequest } from '../core/log';
import { api } from './lazyApi';
import { networkOptions } from './networkSettings';

export function createApiClient(baseUrl: string, apiKey: string, log: vscode.LogOutputChannel): DatagrokApi {
  const config = vscode.workspace.getConfiguration('datagrok');
  // The first client loads the API bundle (the transport): activation never does.
  return api().createClient({
    baseUrl,
    apiKey,
    timeouts: {
      requestMs: config.get<number>('requestTimeoutSeconds', 60) * 1000,
      transferMs: config.get<number>('transferTimeoutSeconds', 600) * 1000,
    },
    maxAnswerBytes: config.get<number>('maxAnswerSizeMB', 64) * 1024 * 1024,
    onRequest: (entry) => logRequest(log, entry),
    network: networkOptions(),
  });
}
