import * as assert from 'node:assert/strict';
import { KeyedDebounce } from '../../src/core/debounce';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('keyed debounce (diagnostics of headers and parameter files)', () => {
  it('runs the last call of a key once the calls pause, each key on its own; cancel and dispose drop what waits', async () => {
    const debounce = new KeyedDebounce(20);
    const ran: string[] = [];
    debounce.schedule('a', () => ran.push('a1'));
    debounce.schedule('b', () => ran.push('b1'));
    debounce.schedule('a', () => ran.push('a2'));
    debounce.schedule('c', () => ran.push('c1'));
    debounce.cancel('c');
    await pause(80);
    assert.deepEqual(ran.sort(), ['a2', 'b1']);
    debounce.schedule('a', () => ran.push('a3'));
    debounce.dispose();
    await pause(80);
    assert.deepEqual(ran.sort(), ['a2', 'b1'], 'nothing runs after dispose');
  });
});
