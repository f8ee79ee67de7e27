// Cancelling a command's work from more than one place: the progress notification's Cancel button and
// the `signal` a script or test passes in the command's options.

/** A signal that aborts when `progress` (the notification's) or the caller's optional `caller` aborts. */
export function anySignal(progress: AbortSignal, caller: AbortSignal | undefined): AbortSignal {
  return caller ? AbortSignal.any([progress, caller]) : progress;
}
