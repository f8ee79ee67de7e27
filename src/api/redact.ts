// Keeping the API key out of every text that came from outside (server messages, echoed URLs): the
// key as sent, percent-encoded, and any long prefix of it a server echoed cut short.

/** Shortest echoed prefix of the key that is hidden (a shorter run could be ordinary text). */
const MIN_PREFIX = 8;

function hidePrefixes(text: string, key: string): string {
  const min = Math.min(MIN_PREFIX, key.length);
  if (min < 4) return text;
  const start = key.slice(0, min);
  let out = '';
  let from = 0;
  for (let at = text.indexOf(start); at >= 0; at = text.indexOf(start, from)) {
    let end = at + min;
    while (end < text.length && end - at < key.length && text[end] === key[end - at]) end++;
    out += `${text.slice(from, at)}***`;
    from = end;
  }
  return out + text.slice(from);
}

/** The text without the key (whole, percent-encoded or a long prefix) and without any bearer token. */
export function redactKey(text: string, key: string): string {
  let t = text;
  if (key.length >= 4) {
    for (const form of new Set([key, encodeURIComponent(key), encodeURIComponent(key).toLowerCase()])) t = hidePrefixes(t, form);
  }
  return t.replace(/(bearer\s+)[^\s"',;]+/gi, '$1***');
}
