import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import { offlineStore, type QueuedSave } from '../../../lib/offline-store';
import { registerPath } from '../api/get-register';
import { showRefusedSave, showSavedRegister } from '../api/save-register';
import { enqueue, queuedSaveOf, resolvedSave, sendOutbox, sendQueued, type NewSave, type SendOutcome } from '../outbox';

/** How often the outbox is sent while the page is visible: a connection back without an `online` event (a captive portal let go). */
export const SYNC_EVERY_MS = 30_000;

export interface RegisterOutbox {
  /** This user's saves on the device, oldest first. */
  saves: QueuedSave[];
  /** Saves the server dropped (422), said once. */
  dropped: string[];
  syncing: boolean;
  /** Writes the save on the device, then sends it: the outcome says what became of it. */
  submit: (save: Omit<NewSave, 'userId'>) => Promise<SendOutcome>;
  syncNow: () => Promise<void>;
  /** Sends a save in conflict again with the user's choices and a reason. */
  resolve: (save: QueuedSave, choices: Record<string, MarkStatus>, reason: string) => Promise<SendOutcome>;
  discard: (id: string) => Promise<void>;
}

/**
 * The register's outbox in the page: sent when the connection comes back (`online`), when the
 * page opens, when it becomes visible again, every SYNC_EVERY_MS while visible and on "Sync now"
 * (Background Sync is not in every browser, and not needed while the page is open).
 */
export function useRegisterOutbox(userId: string | undefined): RegisterOutbox {
  const queryClient = useQueryClient();
  const { i18n } = useLingui();
  const [saves, setSaves] = useState<QueuedSave[]>([]);
  const [dropped, setDropped] = useState<string[]>([]);
  const [syncing, setSyncing] = useState(false);

  const refresh = useCallback(async () => {
    if (!userId) return;
    const all = await offlineStore()
      .queued()
      .catch(() => []);
    setSaves(all.filter((save) => save.userId === userId));
  }, [userId]);

  const settle = useCallback(
    (outcomes: SendOutcome[]) => {
      for (const outcome of outcomes) {
        const place = { className: outcome.save.class, date: outcome.save.date, period: outcome.save.period };
        if (outcome.kind === 'sent') {
          showSavedRegister(queryClient, place, outcome.register, outcome.etag);
          // The device's copy too: a reload offline starts from this revision, not the one before the save.
          offlineStore()
            .keepAnswer({ path: registerPath(place.className, place.date, place.period), userId: outcome.save.userId, data: outcome.register, etag: outcome.etag, at: Date.now() })
            .catch(() => undefined);
        }
        if (outcome.kind === 'refused' || outcome.kind === 'conflict') showRefusedSave(queryClient, place);
        if (outcome.kind === 'dropped') {
          const { class: className, date } = outcome.save;
          const message = outcome.message;
          setDropped((all) => [...all, i18n._(msg`The save of ${className} on ${date} was dropped: ${message}`)]);
        }
      }
    },
    [queryClient, i18n],
  );

  const syncNow = useCallback(async () => {
    if (!userId) return;
    setSyncing(true);
    try {
      settle(await sendOutbox(offlineStore(), userId));
    } finally {
      setSyncing(false);
      await refresh();
    }
  }, [userId, settle, refresh]);

  const send = useCallback(
    async (save: QueuedSave) => {
      // On the device first: a tab closed while the request is on its way loses nothing.
      const queued = await enqueue(offlineStore(), save);
      try {
        const outcome = await sendQueued(offlineStore(), queued);
        settle([outcome]);
        return outcome;
      } finally {
        await refresh();
      }
    },
    [settle, refresh],
  );

  const submit = useCallback(
    async (save: Omit<NewSave, 'userId'>) => {
      if (!userId) throw new Error(i18n._(msg`Not signed in`));
      return send(queuedSaveOf({ ...save, userId }));
    },
    [userId, send, i18n],
  );

  const resolve = useCallback(
    async (save: QueuedSave, choices: Record<string, MarkStatus>, reason: string) => {
      await offlineStore().deleteQueued(save.id);
      return send(resolvedSave(save, choices, reason));
    },
    [send],
  );

  const discard = useCallback(
    async (id: string) => {
      await offlineStore().deleteQueued(id);
      await refresh();
    },
    [refresh],
  );

  useEffect(() => {
    if (!userId) return undefined;
    void syncNow();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void syncNow();
    };
    const onOnline = () => void syncNow();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void syncNow();
    }, SYNC_EVERY_MS);
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [userId, syncNow]);

  return { saves, dropped, syncing, submit, syncNow, resolve, discard };
}
