// The network settings VS Code users already have (http.proxy, http.noProxy, http.proxyStrictSSL,
// http.proxyAuthorization, http.proxySupport, http.systemCertificates, the proxy environment) plus
// datagrok.tls.caCertificates, read into the plain data src/api builds a client's connections from.
// In this process (VS Code's extension host) the editor routes requests itself, as for every other
// extension (its proxy settings, the system's proxy and PAC files, proxy sign-in, system certificates):
// the settings then only describe the route, unless http.proxySupport is off or http.proxyAuthorization
// is set with a proxy the settings name (the editor's agent never sends it: see resolveRoute). A process
// the editor does not patch (the MCP server) gets the settings whole and applies them itself
// (childNetworkOptions).
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as Routes from '../api/network';
import { DatagrokError } from '../api/errors';
import type { NetworkOptions } from '../api/types';

/** Settings whose change makes new clients (applied without a reload). */
export const NETWORK_SETTINGS = [
  'http.proxy',
  'http.noProxy',
  'http.proxyStrictSSL',
  'http.proxyAuthorization',
  'http.proxySupport',
  'http.systemCertificates',
  'datagrok.tls.caCertificates',
];

function expandHome(file: string): string {
  return file.startsWith('~/') || file === '~' ? path.join(os.homedir(), file.slice(1)) : file;
}

/** The PEM files of datagrok.tls.caCertificates, read; a missing or non-PEM file fails with the setting's name. */
function readCaFiles(files: unknown): string[] {
  if (!Array.isArray(files)) return [];
  const pems: string[] = [];
  for (const entry of files) {
    if (typeof entry !== 'string' || entry.trim() === '') continue;
    const file = expandHome(entry.trim());
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? String(e);
      throw new DatagrokError('badInput', `The setting datagrok.tls.caCertificates names ${file}, which cannot be read (${why}). Fix the path or remove the entry.`);
    }
    if (!text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new DatagrokError(
        'badInput',
        `The setting datagrok.tls.caCertificates names ${file}, which holds no PEM certificate (-----BEGIN CERTIFICATE-----). Export the authority's certificate as PEM (Base-64).`,
      );
    }
    pems.push(text);
  }
  return pems;
}

/** The network options of new clients in this process, from the settings and its environment. */
export function networkOptions(): NetworkOptions {
  const options = settingsOptions();
  return { ...options, resolvedByHost: options.proxySupport !== 'off' };
}

/** The environment's proxy and certificate variables, which a child process applies itself (never the rest). */
const PROXY_ENV = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy', 'NODE_EXTRA_CA_CERTS'];

/**
 * The network options for a Node process the editor starts without its proxy patching (the MCP server):
 * the effective settings, applied by that process's own client.
 */
export function childNetworkOptions(): NetworkOptions {
  const env: Record<string, string> = {};
  for (const name of PROXY_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...settingsOptions(), env };
}

function settingsOptions(): NetworkOptions {
  const http = vscode.workspace.getConfiguration('http');
  const support = http.get<string>('proxySupport', 'override');
  return {
    proxy: http.get<string>('proxy', ''),
    noProxy: http.get<string[]>('noProxy', []),
    proxySupport: support === 'off' || support === 'on' || support === 'fallback' ? support : 'override',
    proxyAuthorization: http.get<string | null>('proxyAuthorization', null) ?? undefined,
    proxyStrictSSL: http.get<boolean>('proxyStrictSSL', true),
    systemCertificates: http.get<boolean>('systemCertificates', true),
    caCertificates: readCaFiles(vscode.workspace.getConfiguration('datagrok').get<unknown>('tls.caCertificates', [])),
    env: process.env,
  };
}

/**
 * The route logic (src/api/network.ts): in the extension its own small bundle (dist/network.js, esbuild.mjs),
 * loaded by the first route described (the status bar once the connection's first refresh is over), not
 * at activation.
 */
function routes(): typeof Routes {
  return require('../api/network') as typeof Routes;
}

/** How requests to a server go, for sign-in, the status bar and the log: never credentials. */
export function routeOf(baseUrl: string): string {
  try {
    const { describeRoute, resolveRoute } = routes();
    return describeRoute(resolveRoute(new URL(baseUrl), networkOptions()));
  } catch {
    return 'unknown (check the server URL and the proxy settings)';
  }
}
