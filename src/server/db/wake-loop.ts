import type { Database } from './client';

/**
 * A worker that drains a stored queue (the mail outbox, contact forwarding): `round` runs when a
 * notification on `channel` says there is work (from any process sharing the database), and
 * every `pollIntervalMs` in case one was missed; never two rounds at once (a nudge during a round
 * makes one more after it). `stop` waits for the round in progress, so that what it sent is
 * recorded before the database closes.
 */
export class WakeLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  #stopped = true;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly options: {
      database: Pick<Database, 'listen'>;
      channel: string;
      pollIntervalMs: number;
      round: () => Promise<void>;
      /** LISTEN failed: polling still drains the queue, only a little later. */
      onListenError: (error: unknown) => void;
    },
  ) {}

  /** Whether the loop is stopped (or not started): a round checks it between batches. */
  get stopped(): boolean {
    return this.#stopped;
  }

  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    try {
      this.unlisten = await this.options.database.listen(this.options.channel, () => this.nudge());
    } catch (error) {
      this.options.onListenError(error);
    }
    this.nudge();
  }

  /** Runs a round now (or right after the round in progress). */
  nudge(): void {
    if (this.#stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.options.round().finally(() => {
      this.running = undefined;
      if (this.#stopped) return;
      if (this.again) {
        this.again = false;
        this.nudge();
        return;
      }
      this.timer = setTimeout(() => this.nudge(), this.options.pollIntervalMs);
      this.timer.unref();
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => undefined);
  }
}

/**
 * Records that a message went out, with two more chances after a short database hiccup: if the
 * record were lost, the lease would run out and the message would be sent a second time.
 */
export async function recordDelivery(record: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await record();
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
