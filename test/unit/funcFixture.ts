// A function as the catalog describes it, for the unit tests of signatures and parameter checks.
import type { FuncInfo, FuncParam } from '../../src/api/types';

/** `Stats:Describe` with the given parameters (and any other field overridden). */
export function describeFunc(params: FuncParam[], more: Partial<FuncInfo> = {}): FuncInfo {
  return { id: 'f1', name: 'Describe', nqName: 'Stats:Describe', package: 'Stats', kind: 'function', tags: [], params, ...more };
}
