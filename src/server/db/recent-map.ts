/**
 * A Map that keeps at most `limit` entries: setting a key makes it the newest, and past the limit
 * the oldest goes first. For what a process keeps in memory (sign-ins, report answers, values read
 * under a data version), where the least recently kept is the one least worth keeping.
 */
export class RecentMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.limit) super.delete(this.keys().next().value as K);
    return this;
  }
}
