// What a run's result documents are called where the user sees them (the breadcrumbs' folder, the Runs
// tooltip): the function and its inputs, never the internal run ID or a temporary path. Pure.

/** One input value, short: strings quoted, objects as compact JSON, each capped. */
function shortValue(value: unknown, max = 24): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `a: 2, b: 3` (the inputs as sent, in order), cut at `max` characters; `no inputs` when there are none. */
export function inputsSummary(inputs: Record<string, unknown>, max = 80): string {
  const entries = Object.entries(inputs);
  if (entries.length === 0) return 'no inputs';
  const text = entries.map(([k, v]) => `${k}: ${shortValue(v)}`).join(', ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The folder segment of a run's result URIs, shown in the breadcrumbs: `Demo:Add(a: 2, b: 3)`. A `/`
 * would split the path, so it becomes `∕` (division slash); at most about 100 characters.
 */
export function resultFolderName(functionName: string, inputs: Record<string, unknown>): string {
  const args = Object.keys(inputs).length === 0 ? '' : inputsSummary(inputs, 80);
  return `${functionName}(${args})`.replaceAll('/', '∕').replaceAll('\\', '∖');
}
