// The row order of a sort: a stable LSD radix sort of row ids by a number per row (16 bits a pass over
// the 64 bits of the float, passes where every key has the same digit skipped). A comparator sort of
// 1 million ids took about 3 s on this machine under load; radix passes are linear. Text sorts by the
// rank of each distinct value, so only the distinct values are compared. Missing values (NaN) go last
// in both directions; ties keep file order. Pure.

/** Row ids ordered by `keys[id]`. The keys are overwritten (their bits become the radix digits). */
export function orderByNumbers(keys: Float64Array, descending = false): Uint32Array {
  const n = keys.length;
  const bits = new Uint32Array(keys.buffer, keys.byteOffset, n * 2);
  const missing: number[] = [];
  // Two buffers of n ids: the passes go back and forth between them; the missing go at the end of the last.
  let ids = new Uint32Array(n);
  let tmp = new Uint32Array(n);
  let count = 0;
  for (let id = 0; id < n; id++) {
    const k = keys[id];
    if (Number.isNaN(k)) {
      missing.push(id);
      continue;
    }
    // IEEE 754 to an unsigned order: negative numbers flip every bit, the others the sign bit only.
    let h = bits[2 * id + 1];
    let l = bits[2 * id];
    if (k === 0) {
      h = 0;
      l = 0;
    }
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    if (descending) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    bits[2 * id] = l;
    bits[2 * id + 1] = h;
    ids[count++] = id;
  }
  let idsAll = ids;
  let tmpAll = tmp;
  ids = ids.subarray(0, count);
  tmp = tmp.subarray(0, count);
  const counts = new Uint32Array(65536);
  for (const [word, shift] of [
    [0, 0],
    [0, 16],
    [1, 0],
    [1, 16],
  ] as const) {
    counts.fill(0);
    for (let i = 0; i < count; i++) counts[(bits[2 * ids[i] + word] >>> shift) & 0xffff]++;
    if (count > 0 && counts[(bits[2 * ids[0] + word] >>> shift) & 0xffff] === count) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      tmp[counts[(bits[2 * id + word] >>> shift) & 0xffff]++] = id;
    }
    [ids, tmp] = [tmp, ids];
    [idsAll, tmpAll] = [tmpAll, idsAll];
  }
  idsAll.set(missing, count);
  return idsAll;
}

/** Row ids ordered by text (code unit order, as JavaScript compares strings); `undefined` is missing. */
export function orderByText(values: readonly (string | undefined)[], descending = false): Uint32Array {
  const ranks = new Map<string, number>();
  for (const v of values) if (v !== undefined && !ranks.has(v)) ranks.set(v, 0);
  const distinct = [...ranks.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [i, v] of distinct.entries()) ranks.set(v, i);
  const keys = new Float64Array(values.length);
  for (let id = 0; id < values.length; id++) {
    const v = values[id];
    keys[id] = v === undefined ? Number.NaN : (ranks.get(v) as number);
  }
  return orderByNumbers(keys, descending);
}
