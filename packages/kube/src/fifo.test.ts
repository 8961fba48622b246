import { expect, test } from 'vitest';
import { Fifo } from './fifo.js';

test('keeps order across compactions and reports its length', () => {
  const fifo = new Fifo<number>();
  const out: number[] = [];
  for (let i = 0; i < 5000; i++) {
    fifo.push(i);
    if (i % 3 === 0) out.push(fifo.shift() ?? -1);
  }
  expect(fifo.length).toBe(5000 - out.length);
  for (let v = fifo.shift(); v !== undefined; v = fifo.shift()) out.push(v);
  expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  expect(fifo.shift()).toBeUndefined();
  fifo.push(7);
  fifo.clear();
  expect(fifo.length).toBe(0);
});
