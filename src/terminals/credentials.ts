// The signed-in connection for the user's own programs, as text: the variables Datagrok's Python client's
// own tests read, the .env file the Python extension loads, a Python snippet that reads them. Pure.

export const ENV_URL = 'DATAGROK_API_URL';
export const ENV_KEY = 'DATAGROK_API_KEY';
/** The .env file's first line: only a file that starts with it is rewritten or removed by the extension. */
export const ENV_FILE_MARK = '# Written by Datagrok for VS Code ("Datagrok: Write .env for Python"); removed at sign-out. Holds your API key: do not commit.';
export const ENV_DIR = '.datagrok';
export const ENV_FILE = '.env';

/** A value as a .env line takes it (double quotes, backslashes and quotes escaped, as python-dotenv reads). */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function envFileText(url: string, key: string): string {
  return `${ENV_FILE_MARK}\n${ENV_URL}=${quoted(url)}\n${ENV_KEY}=${quoted(key)}\n`;
}

/** A Python script reaching the server with the variables; the key is never in it. */
export function pythonSnippet(): string {
  return [
    '# pip install datagrok-api',
    '# DATAGROK_API_URL and DATAGROK_API_KEY come from VS Code: "Datagrok: Use Datagrok in Terminals" (integrated',
    '# terminals) or "Datagrok: Write .env for Python" (the Python extension loads .datagrok/.env).',
    'import os',
    'from datagrok_api import DatagrokClient',
    '',
    `with DatagrokClient(os.environ["${ENV_URL}"], "Bearer " + os.environ["${ENV_KEY}"]) as grok:`,
    '    print(grok.groups.current())',
    '',
  ].join('\n');
}
