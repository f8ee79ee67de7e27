// Which certificate authorities a client trusts: Node's defaults (which include NODE_EXTRA_CA_CERTS),
// plus the operating system's store when asked (http.systemCertificates) and Node can read it
// (tls.getCACertificates, Node >= 22.15 / 23.5; older Node keeps the defaults), plus PEMs the user
// named (datagrok.tls.caCertificates). Verification is never turned off here.
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

type CaStore = 'default' | 'system' | 'bundled' | 'extra';
const getCACertificates = (tls as unknown as { getCACertificates?: (store?: CaStore) => string[] }).getCACertificates;

/** Whether this Node can read the operating system's certificate store. */
export function canReadSystemStore(): boolean {
  return typeof getCACertificates === 'function';
}

/** Node's default roots with NODE_EXTRA_CA_CERTS, as Node itself uses them. */
function defaultRoots(env: Record<string, string | undefined>): string[] {
  if (getCACertificates) return getCACertificates('default');
  const roots = [...tls.rootCertificates];
  const extra = env['NODE_EXTRA_CA_CERTS'];
  if (extra) {
    try {
      roots.push(...splitPems(readFileSync(extra, 'utf8')));
    } catch {
      // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; so do we (by ignoring it)
    }
  }
  return roots;
}

/** The PEM blocks in a text (a bundle may hold several); none when the text holds no certificate. */
export function splitPems(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/**
 * The `ca` list for TLS connections, or undefined when Node's defaults are all there is to trust (then
 * Node's own list is used as is).
 */
export function trustedAuthorities(options: { caCertificates?: string[]; systemCertificates?: boolean; env?: Record<string, string | undefined> }): string[] | undefined {
  const extra = (options.caCertificates ?? []).flatMap(splitPems);
  const system = options.systemCertificates && getCACertificates ? getCACertificates('system') : [];
  if (extra.length === 0 && system.length === 0) return undefined;
  return [...new Set([...defaultRoots(options.env ?? process.env), ...system, ...extra])];
}
