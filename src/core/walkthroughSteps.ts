// The "Get Started with Datagrok" walkthrough's steps are ticked by context keys (package.json
// `completionEvents: onContext:…`) that the command layer sets once the step's real action has
// succeeded: a sign-in whose key the server accepted, a push, a run (from the palette, a ▶ CodeLens or
// Run Again), a file share opened or mounted. `onCommand:` ticked a step on the click, even when the
// action then failed, and missed runs started from a CodeLens. Pure: no vscode here.

/** Command id → the context key its success sets. */
export const WALKTHROUGH_STEP_CONTEXT: ReadonlyMap<string, string> = new Map([
  ['datagrok.signIn', 'datagrok.walkthrough.signedIn'],
  ['datagrok.tables.push', 'datagrok.walkthrough.pushed'],
  ['datagrok.functions.run', 'datagrok.walkthrough.ran'],
  ['datagrok.runs.runAgain', 'datagrok.walkthrough.ran'],
  ['datagrok.files.mount', 'datagrok.walkthrough.fileShareOpened'],
  ['datagrok.files.open', 'datagrok.walkthrough.fileShareOpened'],
]);

/** The context key a command's result ticks, or undefined (no step, or no result: nothing was done). */
export function walkthroughContextOf(commandId: string, result: unknown): string | undefined {
  return result === undefined ? undefined : WALKTHROUGH_STEP_CONTEXT.get(commandId);
}
