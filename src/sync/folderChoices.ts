// The choices of Link Folder's second step, the connector folder: the folder named like the local one
// first (to be created when the server has no such folder), a typed path, the connector's root, and the
// folders the server lists (they arrive as they load). Pure: no vscode here.

export interface FolderChoice {
  label: string;
  description?: string;
  /** The folder within the connector ('' for its root); undefined for a line that is not a choice. */
  path?: string;
  alwaysShow?: boolean;
}

/** A folder path as typed: trimmed, with `/`, no slash at either end. */
export function normalFolder(text: string): string {
  return text
    .trim()
    .replace(/\\/g, '/')
    .replace(/^\/+|\/+$/g, '');
}

/** Why a folder path cannot be linked (an empty, "." or ".." part), or undefined. */
export function folderProblem(folder: string): string | undefined {
  if (folder !== '' && folder.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    return `The path "${folder}" has an empty, "." or ".." part. Give a folder within the connector, e.g. "projects/q3" ('' for its root).`;
  }
  return undefined;
}

/**
 * The folder step's choices for the folders listed so far (`done` once all are in), the folder proposed
 * (the local folder's name) and the text typed.
 */
export function folderChoices(listed: readonly string[], proposed: string, typed: string, done: boolean, connector: string): FolderChoice[] {
  const known = new Set(listed);
  const create = (folder: string, why: string): FolderChoice => ({
    label: `$(new-folder) Create '${folder}'`,
    description: why,
    path: folder,
    alwaysShow: true,
  });
  const first: FolderChoice[] = [];
  const wanted = normalFolder(typed);
  const problem = folderProblem(wanted);
  if (problem) first.push({ label: `$(error) ${problem}`, alwaysShow: true });
  else if (wanted !== '' && wanted !== proposed && !known.has(wanted))
    first.push(create(wanted, done ? `${connector} has no such folder: the first sync makes it` : 'made by the first sync, unless it is listed below'));
  if (proposed !== '' && !known.has(proposed)) {
    first.push(
      create(
        proposed,
        done ? `named like this folder; ${connector} has none yet: the first sync makes it` : 'named like this folder; made by the first sync unless the server has it',
      ),
    );
  }
  const listedChoices = [...known]
    .sort((a, b) => (a === proposed ? -1 : b === proposed ? 1 : a.localeCompare(b)))
    .map((folder): FolderChoice => ({ label: `$(folder) ${folder}`, description: folder === proposed ? 'on the server, named like this folder' : undefined, path: folder }));
  return [...first, ...listedChoices, { label: `$(root-folder) ${connector} (its root)`, description: 'the whole connector', path: '' }];
}
