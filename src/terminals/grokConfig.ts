// The grok CLI's ~/.grok/config.yaml (`default:` and `servers: {alias: {url, key}}`): a server alias
// added or updated, everything else in the file kept as it was (comments included), through the `yaml`
// package's document model. Pure: no vscode, no disk.
import { isMap, parseDocument } from 'yaml';
import { badInput } from '../api/errors';

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
