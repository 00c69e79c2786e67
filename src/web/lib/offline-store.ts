import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { RegisterConflict, SaveAttendanceBody } from '../../shared/schemas/attendance';

/**
 * What the portal keeps on the device for working offline (IndexedDB): the register saves not
 * sent yet (the outbox, decision 46) and the last answers of the register page's GETs, so that a
 * faculty member who opened it online lately can open it again without a connection. A browser
 * without IndexedDB (or refusing it) keeps them in the page's memory: they then last as long as
 * the tab.
 */

/** A register save waiting to be sent. */
export interface QueuedSave {
  /** Its Idempotency-Key: one per save, so that sending it twice saves it once. */
  id: string;
  class: string;
  date: string;
  /** 0: the whole-day register. */
  period: number;
  body: SaveAttendanceBody & { markedAt: string };
  /** The register's ETag when the marks were taken: the save is made only if nobody changed it meanwhile. */
  ifMatch: string;
  /** When it was queued, ISO. */
  queuedAt: string;
  /** Who queued it: another user signed in on the device does not send it. */
  userId: string;
  /** The server's 412: the register was changed meanwhile; the user chooses before it is sent again. */
  conflict?: RegisterConflict;
  /** A refusal that sending again will not change (a 400, 403, 404 or 409): shown until discarded. */
  refusal?: string;
}

/** A GET's answer kept for offline use, with when it was fetched. */
export interface KeptAnswer {
  path: string;
  userId: string;
  data: unknown;
  etag: string | null;
  at: number;
}

interface OfflineDatabase extends DBSchema {
  outbox: { key: string; value: QueuedSave };
  answers: { key: [string, string]; value: KeptAnswer };
}

const DATABASE_NAME = 'portal-offline';

export interface OfflineStore {
  queued(): Promise<QueuedSave[]>;
  putQueued(save: QueuedSave): Promise<void>;
  deleteQueued(id: string): Promise<void>;
  answer(userId: string, path: string): Promise<KeptAnswer | undefined>;
  keepAnswer(answer: KeptAnswer): Promise<void>;
  /**
   * The kept answers, for a sign-out: the next user of the device sees none of them. The outbox
   * stays: its saves are its user's, sent when they sign in here again.
   */
  forgetAnswers(): Promise<void>;
}

/** The store in memory: for a browser without IndexedDB. */
export function memoryStore(): OfflineStore {
  const outbox = new Map<string, QueuedSave>();
  const answers = new Map<string, KeptAnswer>();
  const answerKey = (userId: string, path: string) => `${userId} ${path}`;
  return {
    queued: async () => [...outbox.values()].sort((a, b) => a.queuedAt.localeCompare(b.queuedAt)),
    putQueued: async (save) => void outbox.set(save.id, structuredClone(save)),
    deleteQueued: async (id) => void outbox.delete(id),
    answer: async (userId, path) => answers.get(answerKey(userId, path)),
    keepAnswer: async (answer) => void answers.set(answerKey(answer.userId, answer.path), answer),
    forgetAnswers: async () => answers.clear(),
  };
}

function indexedStore(database: Promise<IDBPDatabase<OfflineDatabase>>): OfflineStore {
  return {
    queued: async () => (await (await database).getAll('outbox')).sort((a, b) => a.queuedAt.localeCompare(b.queuedAt)),
    putQueued: async (save) => void (await (await database).put('outbox', save)),
    deleteQueued: async (id) => (await database).delete('outbox', id),
    answer: async (userId, path) => (await database).get('answers', [userId, path]),
    keepAnswer: async (answer) => void (await (await database).put('answers', answer)),
    forgetAnswers: async () => (await database).clear('answers'),
  };
}

let store: OfflineStore | null = null;

/** The device's store: IndexedDB where the browser has it, else memory. */
export function offlineStore(): OfflineStore {
  if (store) return store;
  if (typeof indexedDB === 'undefined') {
    store = memoryStore();
    return store;
  }
  const database = openDB<OfflineDatabase>(DATABASE_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('outbox', { keyPath: 'id' });
      db.createObjectStore('answers', { keyPath: ['userId', 'path'] });
    },
  });
  const indexed = indexedStore(database);
  const memory = memoryStore();
  // Refused (private mode in some browsers, storage disabled): the page's memory instead.
  let refused = false;
  database.catch(() => {
    refused = true;
  });
  const pick = () => (refused ? memory : indexed);
  store = {
    queued: () => pick().queued(),
    putQueued: (save) => pick().putQueued(save),
    deleteQueued: (id) => pick().deleteQueued(id),
    answer: (userId, path) => pick().answer(userId, path),
    keepAnswer: (answer) => pick().keepAnswer(answer),
    forgetAnswers: () => pick().forgetAnswers(),
  };
  return store;
}

/** The saves of this user waiting on the device (for the sign-out's question). */
export async function countQueued(userId: string): Promise<number> {
  try {
    return (await offlineStore().queued()).filter((save) => save.userId === userId).length;
  } catch {
    return 0;
  }
}
