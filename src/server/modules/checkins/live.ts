import type { CheckinList } from '../../../shared/schemas/checkins';
import { z } from '../../../shared/schemas/zod';
import { ChannelHub } from '../../db/channel-hub';
import type { Database, Executor } from '../../db/client';
import { CHECKIN_CHANNEL } from './repository';
import { getCheckinList } from './service';

const ChangeSchema = z.object({ id: z.string() });

/** Reads an announcement of a check-in's change; anything else is dropped. */
export function parseCheckinChange(payload: string): { id: string } | null {
  try {
    const parsed = ChangeSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Where a check-in's read stands: one waits to start, one runs, or one runs and another must follow it. */
type ReadState = 'waiting' | 'reading' | 'again';

/**
 * The check-ins watched by this process's streams (decision 48). The announcements of every
 * process arrive through one database listener; a change of a watched check-in is read once, and
 * its list goes to every stream of it. Reads of one check-in run one at a time, the last after
 * the last change, so a stream's last list is never older than the check-in.
 */
export class CheckinWatch {
  private readonly hub: ChannelHub<{ id: string }>;
  private readonly watchers = new Map<string, Set<(list: CheckinList) => void>>();
  private readonly reads = new Map<string, ReadState>();

  constructor(
    private readonly db: Executor,
    database: Pick<Database, 'listen'>,
    private readonly clock: () => Date,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.hub = new ChannelHub(database, CHECKIN_CHANNEL, parseCheckinChange, onError);
  }

  /** The streams watching, of every check-in. */
  get size(): number {
    return this.hub.size;
  }

  /**
   * Calls `onList` with the check-in's list as it is now, then after each change, until the
   * returned function is called. Resolves once every change committed from then on will be heard.
   */
  async watch(id: string, onList: (list: CheckinList) => void): Promise<() => void> {
    const unsubscribe = await this.hub.subscribe((change) => {
      if (change.id === id) this.changed(id);
    });
    let watchers = this.watchers.get(id);
    if (!watchers) this.watchers.set(id, (watchers = new Set()));
    watchers.add(onList);
    // The list as it is now: for this stream, and the others of the check-in lose nothing by it.
    this.changed(id);
    const own = watchers;
    return () => {
      unsubscribe();
      own.delete(onList);
      if (own.size === 0 && this.watchers.get(id) === own) this.watchers.delete(id);
    };
  }

  /** A change of one check-in: read it once for all its streams, after the read under way if one is. */
  private changed(id: string): void {
    const state = this.reads.get(id);
    if (state === 'reading') this.reads.set(id, 'again');
    if (state !== undefined) return;
    this.reads.set(id, 'waiting');
    // After the announcement reaches every stream's subscriber: one read for all of them.
    queueMicrotask(() => void this.read(id));
  }

  private async read(id: string): Promise<void> {
    this.reads.set(id, 'reading');
    try {
      if (this.watchers.has(id)) {
        const list = await getCheckinList(this.db, id, this.clock());
        for (const watcher of [...(this.watchers.get(id) ?? [])]) {
          try {
            watcher(list);
          } catch (err) {
            this.onError(err);
          }
        }
      }
    } catch (err) {
      this.onError(err);
    }
    const again = this.reads.get(id) === 'again';
    this.reads.delete(id);
    if (again) this.changed(id);
  }

  async close(): Promise<void> {
    this.watchers.clear();
    await this.hub.close();
  }
}
