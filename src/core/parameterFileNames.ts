// What makes a JSON document a parameter file, cheaply (no parser): a name ending .datagrok.json or
// .dgparams.json (or .jsonc), or a "$function" key. The extension's entry checks it before it loads the
// parameter files' code (src/start/parameterFileWatch.ts); src/core/parameterFile.ts parses them.

/** The key naming the function; never sent to the server. */
export const FUNCTION_KEY = '$function';
/** The key naming a local script or query (a path relative to the parameter file, or a URI) to run instead. */
export const SCRIPT_KEY = '$script';
/** File names that are parameter files even before they name a function. */
export const PARAMETER_FILE_NAME = /\.(datagrok|dgparams)\.jsonc?$/i;

/**
 * Whether a document of this language, path and text may be a parameter file: false means it is not one
 * (a parameter file's code finds nothing in it); true that the parameter file's code should look.
 */
export function mayBeParameterFile(languageId: string, path: string, text: () => string): boolean {
  if (languageId !== 'json' && languageId !== 'jsonc') return false;
  return PARAMETER_FILE_NAME.test(path.slice(path.lastIndexOf('/') + 1)) || text().includes(`"${FUNCTION_KEY}"`) || text().includes(`"${SCRIPT_KEY}"`);
}
