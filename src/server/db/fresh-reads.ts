/**
 * Reads that callers asking at the same time share, each still seeing data at least as new as its
 * own call (decision 28): a caller joins a read only if that read has not started yet. While a
 * read of a key is running, every new caller for that key waits for one next read, which starts
 * as soon as the running one ends. So under load a key is read about once per round trip to the
 * database, however many requests ask for it, and no caller is answered by a read that began
 * before it asked: whatever was committed before a request arrived is what that request sees.
 *
 * Nothing is kept once a read ends: this is not a cache, and it needs no invalidation.
 */
export class FreshReads<K, V> {
  /** The read of each key that has started and not yet ended. */
  private readonly running = new Map<K, Promise<V>>();
  /** The read that starts when the running one ends: the one new callers join. */
  private readonly next = new Map<K, Promise<V>>();

  constructor(private readonly read: (key: K) => Promise<V>) {}

  get(key: K): Promise<V> {
    const waiting = this.next.get(key);
    if (waiting) return waiting;
    const running = this.running.get(key);
    if (!running) return this.start(key);
    const settled = () => undefined;
    const next = running.then(settled, settled).then(() => {
      this.next.delete(key);
      return this.start(key);
    });
    this.next.set(key, next);
    return next;
  }

  /** Keys with a read running or waiting: for tests. */
  get pending(): number {
    return new Set([...this.running.keys(), ...this.next.keys()]).size;
  }

  private start(key: K): Promise<V> {
    let promise: Promise<V>;
    try {
      promise = this.read(key);
    } catch (err) {
      promise = Promise.reject(err);
    }
    this.running.set(key, promise);
    const ended = () => {
      if (this.running.get(key) === promise) this.running.delete(key);
    };
    promise.then(ended, ended);
    return promise;
  }
}
