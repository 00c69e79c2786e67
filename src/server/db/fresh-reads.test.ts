import { describe, expect, it } from 'vitest';
import { FreshReads } from './fresh-reads';

/** A read that the test ends by hand, counting how often it started. */
function controlledReads() {
  const started: Array<{ key: string; value: number; resolve: () => void; reject: (err: Error) => void }> = [];
  let store = 0;
  const reads = new FreshReads<string, number>(
    (key) =>
      new Promise<number>((resolve, reject) => {
        // The value the read sees is the store's value when the read starts.
        const value = store;
        started.push({ key, value, resolve: () => resolve(value), reject });
      }),
  );
  return {
    reads,
    started,
    write(value: number) {
      store = value;
    },
  };
}

describe('fresh reads', () => {
  it('start a read at once when none is running', async () => {
    const { reads, started } = controlledReads();
    const answer = reads.get('a');
    expect(started).toHaveLength(1);
    started[0]!.resolve();
    await expect(answer).resolves.toBe(0);
    expect(reads.pending).toBe(0);
  });

  it('never answer a caller with a read that began before it asked, and share the next read among those waiting', async () => {
    const { reads, started, write } = controlledReads();
    const first = reads.get('a');
    // Written after the first read began: those who ask now must see it.
    write(1);
    const second = reads.get('a');
    const third = reads.get('a');
    expect(started).toHaveLength(1);
    started[0]!.resolve();
    await expect(first).resolves.toBe(0);
    // One next read for both waiting callers, started after the first ended.
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(2);
    started[1]!.resolve();
    await expect(second).resolves.toBe(1);
    await expect(third).resolves.toBe(1);
    expect(reads.pending).toBe(0);
  });

  it('keep keys apart', async () => {
    const { reads, started } = controlledReads();
    const a = reads.get('a');
    const b = reads.get('b');
    expect(started.map((read) => read.key)).toEqual(['a', 'b']);
    for (const read of started) read.resolve();
    await Promise.all([a, b]);
  });

  it('pass a failed read to its callers only, and read again for the next ones', async () => {
    const { reads, started } = controlledReads();
    const failing = reads.get('a');
    const waiting = reads.get('a');
    started[0]!.reject(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(2);
    started[1]!.resolve();
    await expect(waiting).resolves.toBe(0);
  });

  it('turn a read that throws at once into a rejected answer', async () => {
    const reads = new FreshReads<string, number>(() => {
      throw new Error('no database');
    });
    await expect(reads.get('a')).rejects.toThrow('no database');
    expect(reads.pending).toBe(0);
  });
});
