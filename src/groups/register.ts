import type { Services } from '../core/services';

/** Registers the groups feature: its commands and providers. */
export function registerGroups(_services: Services): void {}
