// What may make a document a Datagrok package's file, cheaply (no file system, no parser; the entry's
// budget counts every byte): a JavaScript or TypeScript file, or a package.json, that mentions
// `datagrok-api` near its top (every package file imports it, every package's manifest depends on it). The
// extension's entry checks it before it loads the features (src/start/parameterFileWatch.ts);
// src/platform/packages/recognition.ts decides.

export const mayBePackageFile = (path: string, text: () => string): boolean => /(\.[jt]sx?|package\.json)$/.test(path) && text().slice(0, 8000).includes('datagrok-api');
