// How groups and users are named. Its own module: the status bar and the connection (loaded at activation)
// name the user without loading the groups model, whose collator costs ~10 ms to make.
import type { Group } from '../../api/types';

/** The group's name as the server knows it (login for users): what identifies it in lists and messages. */
export function groupName(g: Group | undefined): string {
  return g ? g.name || g.friendlyName || g.id : 'unknown';
}

/** How a person reads the group or user: the friendly name when there is one, else the name. */
export function displayName(g: Group | undefined): string {
  return g ? g.friendlyName || g.name || g.id : 'unknown';
}
