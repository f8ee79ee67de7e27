// The notebook types' serializers, registered at activation (a notebook restored with the window opens
// before anything else loads): opening a notebook loads the features, whose serializer then does the work.
import * as vscode from 'vscode';
import { NOTEBOOKS } from './planned';
import { Forward, type Load } from './standIns';

class NotebookSerializerStandIn extends Forward<vscode.NotebookSerializer> implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array, token: vscode.CancellationToken): vscode.NotebookData | Thenable<vscode.NotebookData> {
    return this.real().deserializeNotebook(content, token);
  }

  serializeNotebook(data: vscode.NotebookData, token: vscode.CancellationToken): Uint8Array | Thenable<Uint8Array> {
    return this.real().serializeNotebook(data, token);
  }
}

export class NotebookStandIns {
  private readonly standIns = new Map<string, NotebookSerializerStandIn>();

  constructor(load: Load) {
    for (const type of Object.keys(NOTEBOOKS)) this.standIns.set(type, new NotebookSerializerStandIn(load, `the ${type} notebooks`));
  }

  register(): vscode.Disposable[] {
    return [...this.standIns].map(([type, standIn]) => vscode.workspace.registerNotebookSerializer(type, standIn, NOTEBOOKS[type]));
  }

  /** The feature's serializer behind the stand-in (the options are the ones planned: NOTEBOOKS). */
  attach(notebookType: string, serializer: vscode.NotebookSerializer): vscode.Disposable {
    const standIn = this.standIns.get(notebookType);
    if (!standIn) throw new Error(`Datagrok: the ${notebookType} notebooks are not registered at activation (src/start/planned.ts, NOTEBOOKS).`);
    standIn.target = serializer;
    return new vscode.Disposable(() => undefined);
  }
}
