// Whether mounting a connector may go ahead in this window. Adding a folder to a window that is not
// already a multi-root workspace makes VS Code reload the window: every editor closes, and an unsaved
// one (an untitled function result, an edited file) would be lost. Pure: no vscode here.

export interface MountSituation {
  /** The window already has a workspace file: adding a folder does not reload it. */
  multiRoot: boolean;
  /** Editors with changes that are not saved anywhere. */
  unsaved: number;
  /** The user can be asked (palette, menu); a script cannot. */
  interactive: boolean;
  /** The caller asked for a new window. */
  newWindow: boolean;
}

/**
 * `add`: add the folder here now; `ask`: the window would reload, ask first (add and reload / new window
 * / cancel); `newWindow`: open the connector in a new window; `refuse`: a script's mount would reload a
 * window holding unsaved work.
 */
export function planMount(s: MountSituation): 'add' | 'ask' | 'newWindow' | 'refuse' {
  if (s.newWindow) return 'newWindow';
  if (s.multiRoot) return 'add';
  if (s.interactive) return 'ask';
  return s.unsaved > 0 ? 'refuse' : 'add';
}
