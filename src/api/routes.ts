// Two generations of servers: try the reference route, fall back to the current one when the server
// says the route does not exist (a plain 404, not an ApiError), and remember per client which one works.
import { DatagrokError } from './errors';
import { isRouteMissing } from './failures';

export class RouteChoice {
  private chosen: 0 | 1 | undefined;

  /** Which route the server has, once known: 'reference' or 'current'. */
  get known(): 'reference' | 'current' | undefined {
    return this.chosen === undefined ? undefined : this.chosen === 0 ? 'reference' : 'current';
  }

  /**
   * `call(0)` uses the reference route, `call(1)` the current one; `afterMissing` is true when the
   * reference route was just reported missing. A POST that met a missing route was never executed, so
   * sending it once to the other route is not a retry.
   */
  async run<T>(call: (route: 0 | 1, afterMissing: boolean) => Promise<T>): Promise<T> {
    // The remembered route first; when it is reported missing (the server was upgraded or downgraded
    // while the editor stayed open), the other one is probed once and remembered instead.
    const first = this.chosen ?? 0;
    const other = first === 0 ? 1 : 0;
    try {
      const value = await call(first, false);
      this.chosen = first;
      return value;
    } catch (err) {
      if (!isRouteMissing(err)) {
        if (answered(err)) this.chosen = first;
        throw err;
      }
    }
    try {
      const value = await call(other, true);
      this.chosen = other;
      return value;
    } catch (err) {
      if (!isRouteMissing(err) && answered(err)) this.chosen = other;
      throw err;
    }
  }
}

/** The server answered (so the route exists), as opposed to a network failure or a cancellation. */
function answered(err: unknown): boolean {
  return err instanceof DatagrokError && err.status !== undefined;
}
