import type { z } from '../../../../shared/schemas/zod';
import { ApiError, api, type TaggedAnswer } from '../../../lib/api-client';
import { offlineStore } from '../../../lib/offline-store';
import { keptUser, OFFLINE_SIGN_IN_MS } from '../../../lib/session';

/** An answer, and when it was fetched when it comes from the device's copy rather than the server. */
export type KeptTaggedAnswer<T> = TaggedAnswer<T> & { keptAt?: number };

/**
 * A GET of the register page, kept on the device (offline-store.ts) for the signed-in user: when
 * the server cannot be reached, the last answer of the past week stands in, so that a register
 * opened online lately opens offline too. Only for a missing connection: a refusal is a refusal.
 */
export async function getKept<T>(path: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<KeptTaggedAnswer<T>> {
  const userId = keptUser()?.id;
  try {
    const answer = await api.getTagged(path, schema, { signal });
    if (userId) {
      offlineStore()
        .keepAnswer({ path, userId, data: answer.data, etag: answer.etag, at: Date.now() })
        .catch(() => undefined);
    }
    return answer;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 0 || !userId) throw error;
    const kept = await offlineStore()
      .answer(userId, path)
      .catch(() => undefined);
    if (!kept || Date.now() - kept.at > OFFLINE_SIGN_IN_MS) throw error;
    const parsed = schema.safeParse(kept.data);
    if (!parsed.success) throw error;
    return { data: parsed.data, etag: kept.etag, keptAt: kept.at };
  }
}
