import type { ErrorKind } from './types';

/**
 * The one error type the API client throws. `message` is written for a person: what failed and why,
 * and never contains the API key.
 */
export class DatagrokError extends Error {
  override readonly name = 'DatagrokError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: {
      /** HTTP status when there was a response. */
      status?: number;
      /** The server's own message (ApiError.message / error), when it sent one. */
      serverMessage?: string;
      method?: string;
      /** Path relative to the base URL. */
      path?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get serverMessage(): string | undefined {
    return this.details.serverMessage;
  }
}

export function isDatagrokError(e: unknown, kind?: ErrorKind): e is DatagrokError {
  return e instanceof DatagrokError && (kind === undefined || e.kind === kind);
}

/** A failure caused by what the user or caller gave (bad options, bad file): nothing was changed. */
export function badInput(message: string): DatagrokError {
  return new DatagrokError('badInput', message);
}
