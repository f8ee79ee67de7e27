// The row order of a sort: a stable LSD radix sort of row ids by a number per row (16 bits a pass over
// the 64 bits of the float, passes where every key has the same digit skipped). A comparator sort of
// 1 million ids took about 3 s on this machine under load; radix passes are linear. Text sorts by the
// rank of each distinct value, so only the distinct values are compared. Missing values (NaN) go last
// in both directions; ties keep file order. Pure.

/** Row ids ordered by `keys[id]`. The keys are overwritten (their bits become the radix digits). */
export function orderByNumbers(keys: Float64Array, descending = false): Uint32Array {
  const n = keys.length;
  // Each key's 64 bits as two words, kept beside its id: every pass reads them in order (no cache miss per key).
  let words: Uint32Array = new Uint32Array(keys.buffer, keys.byteOffset, n * 2);
  let ids = new Uint32Array(n);
  const missing: number[] = [];
  // The four 16-bit digits' counts, all found in the first read.
  const counts = [new Uint32Array(65536), new Uint32Array(65536), new Uint32Array(65536), new Uint32Array(65536)];
  let count = 0;
  for (let id = 0; id < n; id++) {
    const k = keys[id];
    if (Number.isNaN(k)) {
      missing.push(id);
      continue;
    }
    // IEEE 754 to an unsigned order: negative numbers flip every bit, the others the sign bit only.
    let h = words[2 * id + 1];
    let l = words[2 * id];
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
    // Compacted in place (count <= id: the slot was read already).
    words[2 * count] = l;
    words[2 * count + 1] = h;
    ids[count++] = id;
    counts[0][l & 0xffff]++;
    counts[1][l >>> 16]++;
    counts[2][h & 0xffff]++;
    counts[3][h >>> 16]++;
  }
  let otherWords: Uint32Array = new Uint32Array(count * 2);
  let otherIds = new Uint32Array(n);
  for (let pass = 0; pass < 4; pass++) {
    const digitCounts = counts[pass];
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    if (count === 0 || digitCounts[(words[word] >>> shift) & 0xffff] === count) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = digitCounts[d];
      digitCounts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < count; i++) {
      const l = words[2 * i];
      const h = words[2 * i + 1];
      const at = digitCounts[((word === 0 ? l : h) >>> shift) & 0xffff]++;
      otherWords[2 * at] = l;
      otherWords[2 * at + 1] = h;
      otherIds[at] = ids[i];
    }
    [words, otherWords] = [otherWords, words];
    [ids, otherIds] = [otherIds, ids];
  }
  if (ids.length < n) {
    const all = new Uint32Array(n);
    all.set(ids.subarray(0, count));
    ids = all;
  }
  ids.set(missing, count);
  return ids;
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
