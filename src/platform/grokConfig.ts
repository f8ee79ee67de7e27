// The grok CLI's ~/.grok/config.yaml (`default:` and `servers: {alias: {url, key | keyFile, login}}`,
// datagrok-tools bin/utils/keypair.js): its servers read (offered to sign in to), and a server alias added
// or updated with everything else in the file kept as it was (comments included), through the `yaml`
// package's document model. No vscode; the file is read only by `readGrokServers`.
import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { badInput } from '../api/errors';
import { normalizeBaseUrl } from '../api/names';
import { yaml } from './lazyModules';

/** Where grok keeps its config: `~/.grok/config.yaml` of the user's home (HOME, as grok reads it). */
export function grokConfigPath(home = os.homedir()): string {
  return path.join(home, '.grok', 'config.yaml');
}

/** A server of grok's config. */
export interface GrokServer {
  alias: string;
  /** The base URL, ending in /api (undefined when the config's URL is not one: `problem` says why). */
  url?: string;
  /** The developer key grok keeps for it, when it keeps one. */
  key?: string;
  /** Whether `default:` names it. */
  isDefault: boolean;
  /** Why it cannot be signed in to from here (no key, a key pair only, a URL that is not an API URL). */
  problem?: string;
}

export interface GrokServers {
  file: string;
  servers: GrokServer[];
  /** Why the file could not be read (missing is not a problem: no servers). */
  problem?: string;
}

/** The servers of a config's text, the default first, then by alias. */
export function grokServersOf(text: string): GrokServer[] {
  const { isMap, isScalar, parseDocument } = yaml();
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw badInput(`it is not valid YAML (${doc.errors[0].message.split('\n')[0]})`);
  const servers = doc.get('servers');
  if (!isMap(servers)) return [];
  const def = doc.get('default');
  const defaultAlias = typeof def === 'string' ? def.trim() : '';
  const found: GrokServer[] = [];
  for (const pair of servers.items) {
    const alias = String(isScalar(pair.key) ? pair.key.value : pair.key).trim();
    const entry = pair.value;
    const field = (name: string) => {
      const v = isMap(entry) ? entry.get(name) : undefined;
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    const server: GrokServer = { alias, isDefault: alias === defaultAlias, key: field('key') };
    try {
      server.url = normalizeBaseUrl(field('url') ?? '');
    } catch {
      server.problem = `its url is not a server URL ending in /api`;
    }
    if (!server.key)
      server.problem ??= field('keyFile') ? 'grok signs in to it with a key pair (keyFile), which the extension cannot use: sign in with your API key' : 'grok keeps no key for it';
    found.push(server);
  }
  return found.sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.alias.localeCompare(b.alias));
}

/** grok's servers, from `file` (grok's own by default); a missing file has none, an unreadable one says why. */
export async function readGrokServers(file = grokConfigPath()): Promise<GrokServers> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { file, servers: [] };
    return { file, servers: [], problem: `${file} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  try {
    return { file, servers: grokServersOf(text) };
  } catch (e) {
    return { file, servers: [], problem: `${file} could not be read: ${(e as Error).message}` };
  }
}

/** An alias as grok's `--host` takes it: letters, digits, `.`, `_`, `-`. */
export function checkAlias(alias: string): string {
  const a = alias.trim();
  if (!/^[A-Za-z0-9][\w.-]*$/.test(a)) throw badInput(`The alias "${alias}" is not valid: use letters, digits, ".", "_" or "-" (grok --host <alias>).`);
  return a;
}

/** A default alias for a server: its host name. */
export function aliasFor(baseUrl: string): string {
  return new URL(baseUrl).hostname.replace(/[^\w.-]/g, '-') || 'datagrok';
}

/**
 * The config text with `servers.<alias>` set to the server's URL and key (and `default` set to it when
 * asked, or when the file names no default yet). Refuses a file that is not a YAML mapping.
 */
export function withServer(text: string | undefined, alias: string, url: string, key: string, makeDefault: boolean): string {
  const { isMap, parseDocument } = yaml();
  const doc = parseDocument(text ?? '');
  if (doc.errors.length > 0) throw badInput(`The grok config is not valid YAML (${doc.errors[0].message.split('\n')[0]}): fix it or move it away, then try again.`);
  if (doc.contents !== null && !isMap(doc.contents))
    throw badInput('The grok config is not a YAML mapping (it should hold "default:" and "servers:"): fix it or move it away, then try again.');
  const servers = doc.get('servers');
  if (servers !== undefined && servers !== null && !isMap(servers)) throw badInput('"servers" in the grok config is not a mapping: fix it, then try again.');
  if (!isMap(servers)) doc.set('servers', doc.createNode({}));
  const entry = doc.getIn(['servers', alias]);
  if (isMap(entry)) {
    // Kept: the alias's other keys (login…); a keyFile would win over the key, so it goes.
    entry.set('url', url);
    entry.set('key', key);
    entry.delete('keyFile');
  } else {
    doc.setIn(['servers', alias], doc.createNode({ url, key }));
  }
  if (makeDefault || !doc.get('default')) doc.set('default', alias);
  return doc.toString();
}
