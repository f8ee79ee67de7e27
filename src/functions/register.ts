import type { Services } from '../core/services';

/** Registers the functions feature: its commands and providers. */
export function registerFunctions(_services: Services): void {}
