import type { ErrorKind } from './types';

/** Marks every DatagrokError, whichever copy of this module made it (see `Symbol.hasInstance` below). */
const BRAND = Symbol.for('datagrok.DatagrokError');

/**
 * The one error type the API client throws. `message` is written for a person: what failed and why,
 * and never contains the API key.
 */
export class DatagrokError extends Error {
  /**
   * The extension ships two bundles (dist/extension.js, and dist/api.js loaded on the first request),
   * each with its own copy of this class: `instanceof` checks the brand, so an error made by either copy
   * is a DatagrokError to both.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

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
    Object.defineProperty(this, BRAND, { value: true });
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
