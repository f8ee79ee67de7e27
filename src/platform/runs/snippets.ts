// A run as code to paste elsewhere: a curl command for the REST call and a Python script with Datagrok's
// `datagrok-api` package. The key is never written: `<API key>` stands in its place. Pure.
import { nameSegment } from '../../api/names';

export const KEY_PLACEHOLDER = '<API key>';

/** A shell word in single quotes (a quote inside becomes '\''). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * `curl` for `POST {base}/public/v1/{name}/call` (the documented route; the name's `:` becomes `.`), with
 * the inputs as the JSON body.
 */
export function curlText(baseUrl: string, functionName: string, inputs: Record<string, unknown>): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/public/v1/${nameSegment(functionName, 'function name')}/call`;
  return [
    `curl -X POST ${shellQuote(url)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${KEY_PLACEHOLDER}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-raw ${shellQuote(JSON.stringify(inputs))}`,
  ].join('\n');
}

/** A JSON value as a Python literal (true → True, null → None; strings and numbers as in JSON). */
export function pythonLiteral(value: unknown, indent = 0): string {
  const pad = '    '.repeat(indent + 1);
  const end = '    '.repeat(indent);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${pad}${pythonLiteral(v, indent + 1)},`).join('\n')}\n${end}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(v, indent + 1)},`).join('\n')}\n${end}}`;
  }
  return JSON.stringify(String(value));
}

/** A script calling the function with `datagrok-api` (`pip install datagrok-api`). */
export function pythonText(baseUrl: string, functionName: string, inputs: Record<string, unknown>): string {
  return [
    '# pip install datagrok-api',
    'from datagrok_api import DatagrokClient',
    '',
    '# Put your API key (Datagrok: your profile → API Key) in place of <API key>.',
    `with DatagrokClient(${JSON.stringify(baseUrl.replace(/\/+$/, ''))}, ${JSON.stringify(`Bearer ${KEY_PLACEHOLDER}`)}) as grok:`,
    `    result = grok.functions.call(${JSON.stringify(functionName)}, ${pythonLiteral(inputs, 1)})`,
    '    print(result)',
    '',
  ].join('\n');
}
