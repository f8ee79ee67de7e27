import type { Services } from '../core/services';

/** Registers the tables feature: its commands and providers. */
export function registerTables(_services: Services): void {}
