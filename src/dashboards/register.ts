import type { Services } from '../core/services';

/** Registers the dashboards feature: its commands and providers. */
export function registerDashboards(_services: Services): void {}
