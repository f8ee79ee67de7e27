// Turning platform names and connector paths into URL path segments.
// Platform names use ':' as separator, the REST paths use '.'; every colon is replaced (Datagrok's own
// CLI once replaced only the first). Each segment is then percent-encoded on its own, so a name can
// never smuggle a '/' or '..' into the route.
import { badInput, DatagrokError } from './errors';

function invalid(what: string, value: string, why: string): DatagrokError {
  return badInput(`Invalid ${what} "${value}": ${why}.`);
}

/** Checks one segment: not empty, not blank, not '.' or '..'. Returns it unchanged. */
function checkSegment(what: string, whole: string, segment: string): string {
  if (segment.trim() === '') {
    throw invalid(what, whole, whole.trim() === '' ? 'it is empty' : 'it contains an empty part');
  }
  if (segment === '.' || segment === '..') {
    throw invalid(what, whole, `"${segment}" is not allowed as a name or path part`);
  }
  return segment;
}

/** The REST form of a platform name: every ':' becomes '.'. `Admin:Demo:Demo` → `Admin.Demo.Demo`. */
export function toRestName(name: string): string {
  return name.replaceAll(':', '.');
}

/**
 * One encoded path segment for a platform name (table, dashboard, function, connector) or an ID.
 * Rejects empty names and names that become '.' or '..'.
 */
export function nameSegment(name: string, what = 'name'): string {
  if (typeof name !== 'string') throw invalid(what, String(name), 'it is not text');
  const rest = toRestName(name);
  checkSegment(what, name, rest);
  return encodeURIComponent(rest);
}

/** An ID used as one path segment (no ':' conversion: IDs are opaque). */
export function idSegment(id: string, what = 'ID'): string {
  if (typeof id !== 'string') throw invalid(what, String(id), 'it is not text');
  checkSegment(what, id, id);
  return encodeURIComponent(id);
}

/**
 * A '/'-separated file path within a connector, encoded segment by segment. One leading or trailing
 * '/' is tolerated; empty parts ('a//b'), '.' and '..' are rejected. `allowEmpty` admits '' (the root
 * folder, for listings).
 */
export function filePathSegments(path: string, allowEmpty = false): string {
  if (typeof path !== 'string') throw invalid('file path', String(path), 'it is not text');
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  if (trimmed === '') {
    if (allowEmpty) return '';
    throw invalid('file path', path, 'it is empty');
  }
  return trimmed
    .split('/')
    .map((segment) => encodeURIComponent(checkSegment('file path', path, segment)))
    .join('/');
}

/** Comma-separated list of names, each converted and encoded on its own (the commas stay literal). */
export function nameListSegment(names: readonly string[], what: string): string {
  if (!Array.isArray(names) || names.length === 0) {
    throw badInput(`At least one ${what} is required.`);
  }
  return names.map((n) => nameSegment(n, what)).join(',');
}

/**
 * Validates a server URL typed by a person and returns it in canonical form (no trailing '/').
 * It must be http(s) and end in /api, e.g. https://public.datagrok.ai/api.
 */
export function normalizeBaseUrl(url: string): string {
  const example = 'e.g. https://public.datagrok.ai/api';
  const text = typeof url === 'string' ? url.trim() : '';
  if (text === '') {
    throw badInput(`Enter the server URL, ${example}.`);
  }
  const parsed = parseHttpUrl(text);
  const path = parsed.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/api')) {
    // Scheme and host only: a key pasted into the path must not end up in a message or the log.
    throw new DatagrokError(
      'badInput',
      `The server URL must end with /api: type ${parsed.origin}/api (if the API is under a path on ${parsed.host}, end that path with /api; ${example}).`,
    );
  }
  return `${parsed.origin}${path}`;
}

/** Parses an http(s) URL without query or fragment; badInput otherwise. Used for the client's base URL. */
export function parseHttpUrl(text: string): URL {
  const example = 'e.g. https://public.datagrok.ai/api';
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    // The text is not echoed: a key pasted into the URL field must not end up in a message or the log.
    throw badInput(`The server URL is not a valid URL: type the full server address, ${example}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw badInput(`The server URL must start with http:// or https:// (${example}).`);
  }
  if (parsed.username || parsed.password) {
    throw badInput('The server URL must not contain a user name or password; the API key is entered separately.');
  }
  if (parsed.search || parsed.hash) {
    throw badInput(`The server URL must not contain "?" or "#" parts (${example}).`);
  }
  return parsed;
}

/** The key as sent: trimmed, without a pasted "Bearer " prefix. */
export function normalizeApiKey(key: string): string {
  return (typeof key === 'string' ? key : '')
    .trim()
    .replace(/^bearer\s+/i, '')
    .trim();
}

/**
 * Why a key cannot travel in a header, or undefined: only visible ASCII may (a key copied from a page can
 * carry a zero-width space or a typographic character). Names the position and the character's code.
 */
export function apiKeyProblem(key: string): string | undefined {
  for (let i = 0; i < key.length; i++) {
    const code = key.codePointAt(i) ?? 0;
    if (code < 0x21 || code > 0x7e) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      const kind =
        code === 0x20
          ? 'a space'
          : code < 0x20 || (code >= 0x7f && code <= 0xa0) || (code >= 0x200b && code <= 0x200f) || code === 0xfeff
            ? 'an invisible character'
            : 'a character that is not plain ASCII';
      return `The API key contains ${kind} (U+${hex}) at position ${i + 1} of ${key.length}, which cannot be sent. Copy the key again from your Datagrok profile (API Key link), or type it.`;
    }
  }
  return undefined;
}

/**
 * The host (and port) of a base URL, for messages and labels. Text that is not a URL is never echoed
 * whole (a key pasted into the URL box must not reach a message or the log): its scheme and host only.
 */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    const m = /^\s*([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#\s]*@)?([^/?#\s:@]+)/i.exec(baseUrl);
    return m ? `${m[1]}://${m[2]}` : 'an invalid server URL';
  }
}
