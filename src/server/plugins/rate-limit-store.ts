import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';

interface Counter {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: Counter) => void;

interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string };
  groupId?: string;
}

/**
 * A store for @fastify/rate-limit that counts in the database, so that a limit holds across every
 * server process behind a load balancer. One upsert per limited request.
 */
export function databaseRateLimitStore(db: Db) {
  return class DatabaseRateLimitStore {
    constructor(
      _params?: unknown,
      private readonly scope = 'global',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const scoped = `${this.scope}|${key}`;
      const windowMs = Math.max(1, Math.trunc(timeWindow));
      db.insert(rateLimits)
        .values({ key: scoped, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${rateLimits.windowStart} + ${windowMs} * interval '1 millisecond' <= now() then 1 else ${rateLimits.count} + 1 end`,
            windowStart: sql`case when ${rateLimits.windowStart} + ${windowMs} * interval '1 millisecond' <= now() then now() else ${rateLimits.windowStart} end`,
          },
        })
        .returning({
          count: rateLimits.count,
          elapsedMs: sql<number>`(extract(epoch from (now() - ${rateLimits.windowStart})) * 1000)::float8`,
        })
        .then(([row]) => {
          const current = row?.count ?? 1;
          const ttl = Math.max(0, windowMs - Math.round(Number(row?.elapsedMs ?? 0)));
          callback(null, { current, ttl });
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    }

    // The plugin passes the route's merged limit options, with the route under routeInfo.
    child(options: object) {
      const params = options as RouteParams;
      const method = Array.isArray(params.routeInfo?.method) ? params.routeInfo.method.join(',') : params.routeInfo?.method;
      const scope = params.groupId ?? `${method ?? ''} ${params.routeInfo?.url ?? ''}`;
      return new DatabaseRateLimitStore(undefined, scope);
    }
  };
}

/** Windows that ended long ago are deleted now and then, by the same sweep as old sessions. */
export async function deleteStaleRateLimits(db: Db, before: Date): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, before));
}
