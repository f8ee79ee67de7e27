// The shape of a bundle's `manifest.json` as grok writes it (GROK_S.md "Bundle layout"): the source, the pulls,
// the save order, the packages and what stays on the source. Types only.

export interface ManifestEntry {
  type: string;
  id: string;
  file: string;
}

export interface Manifest {
  formatVersion: number;
  source: { url: string; version: string; commit?: string; userNamespace: string };
  pulls: Array<{ at: string; args: string[]; ids: string[] }>;
  order: ManifestEntry[];
  packages: string[];
  /** Entities the bundle refers to but leaves on the source; a push finds the target's own by name. */
  externals?: Array<{ id: string; type: string; nqName: string }>;
  dangling?: string[];
}
