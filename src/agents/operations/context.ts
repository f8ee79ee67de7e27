// What the agents' operations run on, without vscode: the same code serves the language-model tools in
// the extension host and the MCP server (dist/mcp.js, a plain Node process). Each side supplies a client
// for the signed-in server, the platform models, and a way to read the user's local files.
import type { CreationResult } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';
import type { Catalog } from '../../platform/functions/catalog';
import type { GroupsModel } from '../../platform/groups/model';
import type { CsvSource } from '../../platform/tables/push';

/** A local CSV ready to push: a file streamed from disk or an editor's text. */
export interface LocalCsv {
  source: CsvSource;
  /** For messages: the file's name in quotes. */
  what: string;
  /** The table name used when none is given (the file name without extension). */
  defaultName: string;
}

/** A local text file read whole (a parameter file). */
export interface LocalText {
  text: string;
  what: string;
  /** The folder relative "$csv" paths start from. */
  dir: string;
}

/** The user's files as each side reads them (the extension: workspace folders and open editors). */
export interface LocalFiles {
  /** The CSV at `path` (relative to the workspace), or with no path the active CSV editor where there is one. */
  csv(path: string | undefined, base?: string): Promise<LocalCsv>;
  /** A parameter file's text (unsaved edits included where an editor holds it). */
  text(path: string): Promise<LocalText>;
  /** False in an untrusted workspace: confirmations then say the file's contents come from an untrusted folder. */
  readonly trusted: boolean;
}

export interface OperationContext {
  /** A client for the signed-in server; rejects with a "sign in" error (kind 'unauthorized') otherwise. */
  client(): Promise<DatagrokApi>;
  readonly catalog: Catalog;
  readonly groups: GroupsModel;
  readonly files: LocalFiles;
  /** Called after a table was pushed or a dashboard made (the extension remembers them for its views). */
  remember?(kind: 'tables' | 'dashboards', baseUrl: string, entity: CreationResult): Promise<void>;
}

/** What a writing operation will change, for the user's yes (title and a message naming every change). */
export interface Confirmation {
  title: string;
  message: string;
}
