// The public surface of the Datagrok REST client. No `vscode` import anywhere under src/api.
export { createClient, DatagrokClient, type ServerRoutes } from './client';
export { badInput, DatagrokError, isDatagrokError } from './errors';
export { DEFAULT_TIMEOUTS } from './http';
export { describeRoute, isLoopback, parseProxyUrl, resolveRoute } from './network';
export { isNetworkSetupFailure } from './networkFailures';
export { hostOf, normalizeApiKey, normalizeBaseUrl, toRestName } from './names';
export type * from './types';
export type { DatagrokApi } from './datagrokApi';
export type { EntityJson, EntityRoutes, ServerInfo } from './entities';
