import type { Database } from './client';

/**
 * Fans one channel of the database's notifications out to the open event streams of this process.
 * It holds one database listener however many streams are open: on PostgreSQL that is one
 * LISTEN on the client's dedicated connection, not one connection per browser tab.
 */
export class ChannelHub<T> {
  private readonly subscribers = new Set<(event: T) => void>();
  private listening: Promise<() => Promise<void>> | null = null;
  private closed = false;

  constructor(
    private readonly database: Pick<Database, 'listen'>,
    private readonly channel: string,
    private readonly parse: (payload: string) => T | null,
    private readonly onSubscriberError: (err: unknown) => void = () => undefined,
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  /**
   * Adds a subscriber once the database listener is in place, so that any save committed after
   * this resolves reaches it. Returns the function that removes it.
   */
  async subscribe(subscriber: (event: T) => void): Promise<() => void> {
    if (this.closed) throw new Error('event hub is closed');
    await this.ensureListening();
    this.subscribers.add(subscriber);
    return () => {
      this.subscribers.delete(subscriber);
    };
  }

  private ensureListening(): Promise<() => Promise<void>> {
    if (!this.listening) {
      this.listening = this.database.listen(this.channel, (payload) => this.dispatch(payload));
      // A failed start is retried by the next subscriber rather than remembered forever.
      this.listening.catch(() => {
        this.listening = null;
      });
    }
    return this.listening;
  }

  private dispatch(payload: string): void {
    const event = this.parse(payload);
    if (event === null) return;
    for (const subscriber of [...this.subscribers]) {
      try {
        subscriber(event);
      } catch (err) {
        // One broken stream must not keep the event from the others.
        this.onSubscriberError(err);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    const listening = this.listening;
    this.listening = null;
    if (listening) await (await listening.catch(() => null))?.();
  }
}
