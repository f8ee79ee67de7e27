import type { Services } from '../core/services';

/** Registers the files feature: its commands and providers. */
export function registerFiles(_services: Services): void {}
