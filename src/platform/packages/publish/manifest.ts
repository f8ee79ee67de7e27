// What publishing needs of a package's package.json: its npm name, its version, and the name the server
// gives it (datagrok-tools `kebabToCamelCase(removeScope(name))`: `@acme/hello-world` → `HelloWorld`).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PublishError } from './errors';

export interface PackageManifest {
  npmName: string;
  version: string;
  /** The package's name on the server. */
  serverName: string;
  scripts: Record<string, string>;
}

export function serverName(npmName: string): string {
  const bare = npmName.split('/').pop() ?? npmName;
  const camel = bare.replace(/-./g, (x) => x[1].toUpperCase());
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

export function readManifest(folder: string): PackageManifest {
  const file = path.join(folder, 'package.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new PublishError('not-a-package', `${folder} has no package.json: a Datagrok package is a folder with a package.json that depends on datagrok-api.`);
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new PublishError('bad-manifest', `${file} is not valid JSON (${(e as Error).message}): fix it and publish again.`);
  }
  const npmName = json.name;
  if (typeof npmName !== 'string' || !/^(@[\w.-]+\/)?[\w.-]+$/.test(npmName)) {
    throw new PublishError('bad-manifest', `${file} has no valid "name" (a name such as "my-package" or "@scope/my-package"): add one and publish again.`);
  }
  const version = json.version;
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+(?:[-+][\w.+-]*)?$/.test(version)) {
    throw new PublishError('bad-manifest', `${file} has no valid "version" (such as "1.0.0"): add one and publish again.`);
  }
  const scripts = typeof json.scripts === 'object' && json.scripts !== null ? (json.scripts as Record<string, string>) : {};
  return { npmName, version, serverName: serverName(npmName), scripts };
}
