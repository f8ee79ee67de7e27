// Who a share offers: pure, so the Share Dashboard step and its unit test agree.
import type { Group } from '../../api/types';

/**
 * The groups and users the lookup offers to share with: everyone it finds but the user themself (the
 * owner has the dashboard already). `me` is the user's personal group ID, when known.
 */
export function shareCandidates(found: readonly Group[], me: string | undefined): Group[] {
  return me === undefined ? [...found] : found.filter((g) => g.id.toLowerCase() !== me.toLowerCase());
}
