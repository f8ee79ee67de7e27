// An ApiError known from its first bytes. Real servers answer some failures with HTTP 200 and an
// ApiError body, `#type` first (`{"#type":"ApiError","message":…}`, sometimes JSON-encoded as a string);
// when its message or stack trace runs to megabytes, only the first kilobytes are read (as for any error
// body), and the text cut there is no longer JSON. Its fields are read as far as they go. Pure.

/** An ApiError object, or a JSON string holding one, opening the text (leading spaces allowed). */
const OPENS_API_ERROR = /^\s*(?:\{\s*"#type"\s*:\s*"ApiError"|"\s*\{\s*\\"#type\\"\s*:\s*\\"ApiError\\")/;

/** How many first bytes decide: `{"#type":"ApiError"` with room for spaces. */
export const API_ERROR_OPENING = 64;

/** Whether the text (a body's first bytes are enough) opens an ApiError. */
export function opensApiError(text: string): boolean {
  return OPENS_API_ERROR.test(text);
}

/**
 * The JSON string starting at `start` (just after its opening quote), decoded, up to its closing quote
 * or, cut short, up to the end of the text (an escape cut in two dropped).
 */
function stringFrom(text: string, start: number): string {
  let i = start;
  let end = text.length;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      end = i;
      break;
    }
    if (c === '\\') {
      const size = text[i + 1] === 'u' ? 6 : 2;
      if (i + size > text.length) {
        end = i;
        break;
      }
      i += size;
    } else i++;
  }
  const raw = text.slice(start, end);
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw; // a control character or a bad escape: the text as it came
  }
}

const TEXT_FIELDS = ['message', 'error'] as const;
const CODE_FIELDS = ['errorCode', 'statusCode', 'status'] as const;

/**
 * The fields of an ApiError whose text may be cut short (`message`, `error` and the status codes, as far
 * as they came), as an object `apiErrorOf` reads; undefined when the text does not open an ApiError.
 */
export function apiErrorHead(text: string): Record<string, unknown> | undefined {
  const opening = OPENS_API_ERROR.exec(text);
  if (!opening) return undefined;
  // A JSON string holding the object: the object's text is that string, as far as it goes.
  const object = opening[0].trimStart().startsWith('"') ? stringFrom(text, text.indexOf('"') + 1) : text;
  const fields: Record<string, unknown> = { '#type': 'ApiError' };
  // A key's quotes inside a string value are escaped (\"message\"), so these find keys, not text.
  for (const key of TEXT_FIELDS) {
    const m = new RegExp(`"${key}"\\s*:\\s*"`).exec(object);
    if (m) fields[key] = stringFrom(object, m.index + m[0].length);
  }
  for (const key of CODE_FIELDS) {
    const m = new RegExp(`"${key}"\\s*:\\s*"?(\\d{1,3})\\b`).exec(object);
    if (m) fields[key] = Number(m[1]);
  }
  return fields;
}
