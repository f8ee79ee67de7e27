// Runs inside the extension host (imported by the integration suite and the activation bench's runner):
// the host's own performance marks around one extension's activation (VS Code's
// `vs/base/common/performance`, kept on `globalThis.MonacoPerformanceMarks` in the host's process).

/**
 * Milliseconds from will- to didLoadExtensionCode, and from willActivateExtension (just before the
 * activate() call) to didActivateExtension (once the promise activate() returned has resolved), or
 * undefined.
 */
export function activationMarks(extensionId: string): { loadMs: number; untilActiveMs: number } | undefined {
  const perf = (globalThis as { MonacoPerformanceMarks?: { getMarks(): { name: string; startTime: number }[] } }).MonacoPerformanceMarks;
  const byName = new Map(perf?.getMarks().map((mark) => [mark.name, mark.startTime]) ?? []);
  const at = (what: string) => byName.get(`code/extHost/${what}/${extensionId}`);
  const [willLoad, didLoad, willActivate, didActivate] = ['willLoadExtensionCode', 'didLoadExtensionCode', 'willActivateExtension', 'didActivateExtension'].map(at);
  if (willLoad === undefined || didLoad === undefined || willActivate === undefined || didActivate === undefined) return undefined;
  return { loadMs: didLoad - willLoad, untilActiveMs: didActivate - willActivate };
}
