// What grok test's Node pass (datagrok-tools 6.7.5 bin/utils/node-test-worker.js, through the js-api Node
// runtime's dapi) reads of a published package beyond the package list and its files (routes-packages.ts):
// - `GET /packages/{id}`: the package by its id or by the id of one of its published versions (the worker
//   finds the package by `publishedVersions[…].id`), answered as the package with that version's id and version;
// - `GET /functions?text=package.id = "{id}"`: the functions of that package as the user sees it (the test
//   library's auto tests read them); any other `text` is the function search of routes.ts.
// Registered before the entity routes and the function search.
import { ApiError, type Route, sendJson } from './http';
import type { StoredPackage } from './package-store';
import type { EmulatorState } from './state';

export function packageReadRoutes(state: EmulatorState): Route[] {
  const store = state.packages;
  /** The package and the version an id names (a version's id, or the package's own: its visible version). */
  const byId = (id: string): { pkg: StoredPackage; versionId?: string } | undefined => {
    const lower = id.toLowerCase();
    for (const pkg of store.packages.values()) {
      const version = pkg.versions.find((v) => v.id === lower && (!v.debug || v.publisher === state.currentUser));
      if (version) return { pkg, versionId: version.id };
      if (pkg.id === lower) return { pkg };
    }
    return undefined;
  };
  return [
    {
      method: 'GET',
      path: 'packages/:id',
      handler: (ctx) => {
        const found = byId(ctx.params.id);
        const json = found && store.json(found.pkg, state.currentUser);
        if (!found || !json) throw new ApiError(404, `Package ${ctx.params.id} not found`);
        const version = found.versionId ? found.pkg.versions.find((v) => v.id === found.versionId) : undefined;
        sendJson(ctx.res, version ? { ...json, id: version.id, version: version.packageVersion } : json);
      },
    },
    {
      method: 'GET',
      path: 'functions',
      handler: (ctx) => {
        const text = ctx.query.get('text') ?? '';
        const id = /^package\.id\s*=\s*"([^"]+)"$/.exec(text.trim())?.[1];
        if (id === undefined) return sendJson(ctx.res, state.functions.list(text));
        const found = byId(id);
        const prefix = `${found?.pkg.name.toLowerCase()}:`;
        sendJson(ctx.res, found ? state.functions.list(null).filter((f) => `${(f.package as { name: string }).name}:${f.name}`.toLowerCase().startsWith(prefix)) : []);
      },
    },
  ];
}
