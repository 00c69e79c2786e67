import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { CHANGE_SOURCES, MARK_STATUSES } from '../../shared/attendance-rules';
import { CORRECTION_STATES } from '../../shared/schemas/corrections';

const statusCheck = (name: string, status: unknown) =>
  check(name, sql`${status} in ('present', 'absent', 'late', 'excused')`);

/** A PIN is stored in its normal form, trimmed and upper case (decision 6), whatever writes it. */
const normalPin = (name: string, pin: unknown) => check(name, sql`${pin} = upper(btrim(${pin}))`);

/**
 * Binary data: a Buffer in Node, bytea in the database. Both drivers take and give a Uint8Array
 * (node-postgres a Buffer); it is handed over as a plain Uint8Array of this realm, which is what
 * PGlite's type check asks for.
 */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

/** A count per key in a window that starts at its first count: the shape of the portal's limits. */
function windowCounts<N extends string>(name: N) {
  return pgTable(
    name,
    {
      key: text('key').primaryKey(),
      windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
      count: integer('count').notNull().default(0),
    },
    (t) => [index(`${name}_window_idx`).on(t.windowStart)],
  );
}

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    // Null for an account made from the roster: it signs in through single sign-on or a set-password link.
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['faculty', 'student', 'admin'] }).notNull(),
    pin: text('pin').references(() => students.pin, { onUpdate: 'cascade' }),
    createdAt: createdAt(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    // The identity provider's `sub` for this account, remembered at its first single sign-on.
    oidcSubject: text('oidc_subject'),
    // The language the account chose for the portal and its e-mails; null follows the browser's.
    language: text('language', { enum: ['en', 'hi', 'te'] }),
  },
  (t) => [
    uniqueIndex('users_oidc_subject_key').on(t.oidcSubject),
    // Emails are compared case-insensitively: one account per address however it is typed.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_pin_idx').on(t.pin),
    check('users_role_check', sql`${t.role} in ('faculty', 'student', 'admin')`),
    check('users_language_check', sql`${t.language} in ('en', 'hi', 'te')`),
    check('users_student_pin_check', sql`${t.role} <> 'student' or ${t.pin} is not null`),
    normalPin('users_pin_normal_check', t.pin),
  ],
);

/** Sign-in sessions: one row per signed-in browser (the cookie). */
export const signInSessions = pgTable(
  'sessions',
  {
    // SHA-256 of the random token in the cookie: a leaked table does not give working cookies.
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    persistent: boolean('persistent').notNull().default(false),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    // PORTAL_REQUIRE_TOTP=staff: a staff sign-in without TOTP reaches only the TOTP setup until it is on.
    totpSetupRequired: boolean('totp_setup_required').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * An account's TOTP secret (decision 17), base32. Not enabled until a first code proves the
 * app has it; the last step used is kept so that a code works once.
 */
export const totpCredentials = pgTable('totp_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/**
 * A single sign-on on its way through the identity provider (decision 17): keyed by the SHA-256
 * of the `portal_oidc` cookie, holding the state, nonce and PKCE verifier; deleted when the
 * callback uses it, so a callback works once and only in the browser that started it.
 */
export const oidcLogins = pgTable(
  'oidc_logins',
  {
    id: text('id').primaryKey(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    role: text('role', { enum: ['faculty', 'student'] }).notNull(),
    returnUrl: text('return_url'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oidc_logins_expires_idx').on(t.expiresAt)],
);

/** The ten recovery codes shown once when TOTP is enabled, stored as SHA-256; each works once. */
export const totpRecoveryCodes = pgTable(
  'totp_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('totp_recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * A password sign-in waiting for its second step: the `portal_pending` cookie's token, as SHA-256,
 * for five minutes. Used once: the second step deletes it.
 */
export const pendingSignIns = pgTable(
  'pending_sign_ins',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    persistent: boolean('persistent').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('pending_sign_ins_expires_idx').on(t.expiresAt)],
);

/**
 * Sign-in attempts per key (an e-mail, an address or a device) in a fixed 15-minute window,
 * counted with one atomic upsert per attempt so that concurrent attempts cannot slip past a limit.
 */
export const signInLimits = windowCounts('sign_in_limits');

/**
 * Browsers that have signed in to an account: the `portal_device` cookie's id, stored hashed.
 * Attempts from such a browser are limited on their own, so failures from elsewhere cannot lock
 * the owner out.
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('trusted_devices_user_idx').on(t.userId)],
);

/** Secrets every server process must share (the cookie-signing key), created at first start. */
export const portalSecrets = pgTable('portal_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * One-time set-password links (decision 12): the token is stored hashed, works once, and an
 * account has at most one (a new link cancels the old one).
 */
export const setPasswordTokens = pgTable('set_password_tokens', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique('set_password_tokens_hash_key'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** The classes, in dashboard order; an archived class keeps its history and leaves the dashboard. */
export const classes = pgTable('classes', {
  name: text('name').primaryKey(),
  position: integer('position').notNull(),
  archivedAt: timestamp('archived_at', { withTimezone: true }),
});

/** Terms (decision 12): date ranges that never overlap; reports default to the current one. */
export const terms = pgTable(
  'terms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('terms_name_key').on(sql`lower(${t.name})`),
    index('terms_dates_idx').on(t.startsOn, t.endsOn),
    check('terms_dates_check', sql`${t.startsOn} <= ${t.endsOn}`),
  ],
);

/** Subjects (decision 13): a code that never changes (registers and counters keep it) and a name. */
export const subjects = pgTable(
  'subjects',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('subjects_code_check', sql`${t.code} <> ''`)],
);

/** A class's weekly timetable (decision 13): which subject each (weekday, period) holds; weekday 1 = Monday. */
export const timetableSlots = pgTable(
  'timetable_slots',
  {
    className: text('class_name')
      .notNull()
      .references(() => classes.name, { onUpdate: 'cascade', onDelete: 'cascade' }),
    weekday: integer('weekday').notNull(),
    period: integer('period').notNull(),
    subjectCode: text('subject_code')
      .notNull()
      .references(() => subjects.code),
    // The faculty account who teaches the lecture: reminded when its register is missing.
    teacherId: uuid('teacher_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.className, t.weekday, t.period] }),
    index('timetable_slots_teacher_idx').on(t.teacherId),
    index('timetable_slots_subject_idx').on(t.subjectCode),
    check('timetable_slots_weekday_check', sql`${t.weekday} between 1 and 7`),
    check('timetable_slots_period_check', sql`${t.period} between 1 and 12`),
  ],
);

/**
 * Versions of what reports are computed from (decision 14): every write that feeds a report
 * bumps `reports` in its own transaction, and cached answers are keyed by it (the ETag).
 */
export const dataVersions = pgTable('data_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * The audit trail (decision 12): one row per action, written in the action's transaction. The
 * actor is kept as text (an e-mail, or `cli`) with the account's id when there is one, without a
 * foreign key, so that the trail outlives the accounts it names. A trigger refuses every UPDATE
 * and DELETE: nothing in the app can change the trail.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    target: text('target').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('audit_log_action_idx').on(t.action, t.id), index('audit_log_at_idx').on(t.at)],
);

export const students = pgTable(
  'students',
  {
    pin: text('pin').primaryKey(),
    name: text('name').notNull(),
    className: text('class_name')
      .notNull()
      .references(() => classes.name, { onUpdate: 'cascade' }),
    // Withdrawn by a roster import (`?withdraw=true`): off the class's register, history kept.
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [index('students_class_idx').on(t.className, t.pin), normalPin('students_pin_normal_check', t.pin)],
);

export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pin: text('pin').notNull(),
    name: text('name').notNull(),
    designation: text('designation').notNull(),
    imageUrl: text('image_url'),
    imageAlt: text('image_alt'),
    linkedin: text('linkedin'),
    github: text('github'),
    leetcode: text('leetcode'),
    resume: text('resume'),
    portfolio: text('portfolio'),
    email: text('email'),
    phone: text('phone'),
    // The uploaded photo's version (a digest of its bytes), kept with the photo in profile_photos;
    // null when there is none. It goes into the photo's address, so a new photo is a new URL.
    photoVersion: text('photo_version'),
    // An anonymous registration waits for faculty; the student's own and faculty's are approved.
    status: text('status', { enum: ['pending', 'approved'] }).notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('profiles_pin_key').on(t.pin),
    index('profiles_created_idx').on(t.createdAt),
    check('profiles_status_check', sql`${t.status} in ('pending', 'approved')`),
    normalPin('profiles_pin_normal_check', t.pin),
  ],
);

/** An uploaded profile photo, re-encoded and stripped of metadata (decision 16); one per profile. */
export const profilePhotos = pgTable('profile_photos', {
  profileId: uuid('profile_id')
    .primaryKey()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

/**
 * Registers: one per (class, date, period); period 0 is the whole-day register, the original app's
 * only kind (decision 13). The table keeps its first name, attendance_sessions. The subject is the one the
 * register was taken for (null for period 0), and the term the one holding its date (null outside
 * every term), kept in step when terms change: the student counters are bucketed by both.
 */
export const registers = pgTable(
  'attendance_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    className: text('class_name')
      .notNull()
      .references(() => classes.name, { onUpdate: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    period: integer('period').notNull().default(0),
    subjectCode: text('subject_code').references(() => subjects.code),
    termId: uuid('term_id').references(() => terms.id),
    takenBy: uuid('taken_by').references(() => users.id, { onDelete: 'set null' }),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // The register's revision (decision 46): one more with every save, given as its ETag with its
    // id; 0 for a register written without a save (demo data, an import).
    revision: integer('revision').notNull().default(0),
    // Marks per status, kept in step with the marks in the same transaction.
    presentCount: integer('present_count').notNull().default(0),
    absentCount: integer('absent_count').notNull().default(0),
    lateCount: integer('late_count').notNull().default(0),
    excusedCount: integer('excused_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('attendance_sessions_class_date_period_key').on(t.className, t.date, t.period),
    index('attendance_sessions_date_idx').on(t.date),
    index('attendance_sessions_subject_idx').on(t.className, t.subjectCode),
    index('attendance_sessions_term_idx').on(t.termId),
    check('attendance_sessions_counts_check', sql`${t.presentCount} >= 0 and ${t.absentCount} >= 0`),
    check('attendance_sessions_status_counts_check', sql`${t.lateCount} >= 0 and ${t.excusedCount} >= 0`),
    check('attendance_sessions_period_check', sql`${t.period} between 0 and 12`),
    check('attendance_sessions_subject_check', sql`${t.period} > 0 or ${t.subjectCode} is null`),
  ],
);

/**
 * The dashboard's totals (decision 43): the sums of the registers' counts per class and term
 * (the class table and tiles) and per class and date (the weekly and monthly series), with how
 * many registers each sums. Derived from attendance_sessions and kept in step with it by the
 * database itself: statement triggers on that table (migration dashboard_totals) add every insert's, update's
 * and delete's change of counts, class, term or date in the same transaction, whatever statement
 * makes it (a save, a past register, a term change's re-bucketing, a class rename's cascade, a
 * rebuild, a restore). A row whose registers are all gone is deleted. No foreign keys: the
 * triggers move a renamed class's rows themselves. `portal verify` checks them against the
 * registers; backups leave them out (loading the registers fills them again).
 */
const totalColumns = () => ({
  registers: integer('registers').notNull().default(0),
  present: integer('present').notNull().default(0),
  late: integer('late').notNull().default(0),
  absent: integer('absent').notNull().default(0),
  excused: integer('excused').notNull().default(0),
});

export const classTermTotals = pgTable(
  'class_term_totals',
  {
    termId: uuid('term_id'),
    className: text('class_name').notNull(),
    ...totalColumns(),
  },
  (t) => [
    unique('class_term_totals_key').on(t.termId, t.className).nullsNotDistinct(),
    // Nearly always empty: where the triggers find the rows to delete.
    index('class_term_totals_empty_idx').on(t.termId).where(sql`${t.registers} = 0`),
  ],
);

export const classDayTotals = pgTable(
  'class_day_totals',
  {
    date: date('date', { mode: 'string' }).notNull(),
    className: text('class_name').notNull(),
    ...totalColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.date, t.className] }),
    index('class_day_totals_empty_idx').on(t.date).where(sql`${t.registers} = 0`),
  ],
);

/**
 * Descending as the marks' history index is (`desc nulls last`, drizzle's index default). A plain
 * `desc` sorts nulls first, which the index cannot give, so the database read and sorted every
 * mark of the student, even for the latest three: every query that walks a student's marks
 * newest first orders by this.
 */
export const newestFirst = (column: AnyPgColumn) => sql`${column} desc nulls last`;

export const attendanceMarks = pgTable(
  'attendance_marks',
  {
    registerId: uuid('session_id')
      .notNull()
      .references(() => registers.id, { onDelete: 'cascade' }),
    pin: text('pin').notNull(),
    name: text('name').notNull(),
    // The class the student was in that day: a later move leaves it, a rename changes it.
    className: text('class_name')
      .notNull()
      .references(() => classes.name, { onUpdate: 'cascade' }),
    status: text('status', { enum: MARK_STATUSES }).notNull(),
    // The register's date and period, copied so that a student's history pages through one index.
    date: date('date', { mode: 'string' }).notNull(),
    period: integer('period').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.registerId, t.pin] }),
    index('attendance_marks_history_idx').on(t.pin, t.date.desc(), t.period.desc(), t.className),
    index('attendance_marks_class_idx').on(t.className),
    normalPin('attendance_marks_pin_normal_check', t.pin),
    statusCheck('attendance_marks_status_check', t.status),
  ],
);

/**
 * A student's marks counted per (subject, term) and status (decision 13), written in the same
 * transaction as the marks, in PIN order. Subject '' is the period-0 register; a null term is a
 * date outside every term. Summaries and the below-threshold lists read these, never the marks.
 * Its pages are filled to 70% (migration 0018, a storage setting this schema cannot state), so
 * that a save's updates stay on their rows' pages and write no index (decision 39).
 */
export const studentCounters = pgTable(
  'student_counters',
  {
    pin: text('pin').notNull(),
    subjectCode: text('subject_code').notNull().default(''),
    termId: uuid('term_id').references(() => terms.id),
    present: integer('present').notNull().default(0),
    late: integer('late').notNull().default(0),
    absent: integer('absent').notNull().default(0),
    excused: integer('excused').notNull().default(0),
  },
  (t) => [
    unique('student_counters_key').on(t.pin, t.subjectCode, t.termId).nullsNotDistinct(),
    // No CHECK that counts stay positive: PostgreSQL checks the row an upsert proposes (a -1
    // delta) before it finds the row to update. `portal verify` catches any drift instead.
    index('student_counters_term_subject_idx').on(t.termId, t.subjectCode),
  ],
);

export const attendanceChanges = pgTable(
  'attendance_changes',
  {
    id: serial('id').primaryKey(),
    registerId: uuid('session_id')
      .notNull()
      .references(() => registers.id, { onDelete: 'cascade' }),
    pin: text('pin').notNull(),
    oldStatus: text('old_status', { enum: MARK_STATUSES }),
    newStatus: text('new_status', { enum: MARK_STATUSES }).notNull(),
    changedBy: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    reason: text('reason'),
    // When the mark was taken on the device, if the save says so (an offline register synced
    // later, decision 46); changed_at, the server's time, still orders the history.
    markedAt: timestamp('marked_at', { withTimezone: true }),
    // The register's revision the save made: what changed since a revision (a 412's conflicts).
    // Null for changes saved before revisions were kept.
    revision: integer('revision'),
    // Who made the change: faculty (a save, a correction accepted, a check-in removed) or the
    // student themself, by checking in (decision 45). A mark whose history has a faculty change is
    // never changed by a check-in.
    source: text('source', { enum: CHANGE_SOURCES }).notNull().default('faculty'),
  },
  (t) => [
    index('attendance_changes_session_idx').on(t.registerId, t.changedAt),
    statusCheck('attendance_changes_old_status_check', t.oldStatus),
    statusCheck('attendance_changes_new_status_check', t.newStatus),
    check('attendance_changes_source_check', sql`${t.source} in ('faculty', 'self')`),
  ],
);

/**
 * A student's request to correct one of their marks (decision 16): open until faculty accept it
 * (the mark changes, with the request's reason in the register's history) or decline it with a
 * reply. One open request per mark.
 */
export const correctionRequests = pgTable(
  'correction_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    registerId: uuid('register_id')
      .notNull()
      .references(() => registers.id, { onDelete: 'cascade' }),
    pin: text('pin').notNull(),
    reason: text('reason').notNull(),
    state: text('state', { enum: CORRECTION_STATES }).notNull().default('open'),
    reply: text('reply'),
    createdAt: createdAt(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('correction_requests_open_key').on(t.registerId, t.pin).where(sql`${t.state} = 'open'`),
    index('correction_requests_state_idx').on(t.state, t.createdAt),
    index('correction_requests_pin_idx').on(t.pin, t.createdAt),
    check('correction_requests_state_check', sql`${t.state} in ('open', 'accepted', 'declined')`),
    normalPin('correction_requests_pin_normal_check', t.pin),
  ],
);

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    forwardedAt: timestamp('forwarded_at', { withTimezone: true }),
    forwardError: text('forward_error'),
    forwardAttempts: integer('forward_attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    index('contact_messages_created_idx').on(t.createdAt),
    index('contact_messages_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.forwardedAt} is null`),
  ],
);

/**
 * The answers of register saves sent with an Idempotency-Key (decision 46), kept 72 hours: the
 * same key and request again is answered from here without saving again. Written in the save's
 * transaction, so a key exists exactly when its save does; `request_hash` is the SHA-256 of the
 * canonical request (method, path, body). The status is 0 only inside that transaction, before
 * the answer is known.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: uuid('key').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    body: jsonb('body'),
    /** The answer's ETag: the register's revision that save made. */
    etag: text('etag'),
    createdAt: createdAt(),
  },
  (t) => [index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Request counts per client and route for rate limits, shared by every server process. */
export const rateLimits = windowCounts('rate_limits');

/**
 * The mail outbox: every e-mail the portal sends is stored here first, in the transaction of what
 * it is about, and a background sender delivers it through SMTP with retries (decision 37). A
 * newer message on the same topic (an account's set-password link) cancels an older one not sent
 * yet. The body is dropped once the message is sent, given up or cancelled: it may hold a one-time
 * link, which is otherwise stored only as its hash.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** What the message is about, e.g. `set-password:<account id>`; null for a message of its own. */
    topic: text('topic'),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body'),
    /** Extra headers (such as List-Unsubscribe), name to value. */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    /** When a sender may take it next: after a failure, later and later; while one sends it, its lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Not sent by then: given up (a set-password mail when its link ends). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When it was sent, given up or cancelled. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('mail_outbox_status_check', sql`${t.status} in ('queued', 'sent', 'failed', 'cancelled')`),
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index('mail_outbox_topic_idx').on(t.topic, t.id),
    index('mail_outbox_finished_idx').on(t.finishedAt),
  ],
);

/**
 * Documents already imported from the Firebase app's export (decision 41), so that importing the
 * same file again adds nothing. Each is kept as the SHA-256 of its collection and id: an id may
 * be anything the old app chose, a PIN included, and an erased student's must not outlive them.
 */
export const importedDocuments = pgTable('imported_documents', {
  key: text('key').primaryKey(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The day's lecture periods with their times, in the portal's time zone (`HH:MM`), the same every weekday. */
export const periods = pgTable(
  'periods',
  {
    period: integer('period').primaryKey(),
    startsAt: text('starts_at').notNull(),
    endsAt: text('ends_at').notNull(),
  },
  (t) => [
    check('periods_period_check', sql`${t.period} between 1 and 12`),
    check('periods_times_check', sql`${t.startsAt} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${t.endsAt} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${t.startsAt} < ${t.endsAt}`),
  ],
);

/** Which alert rules are switched on; a rule without a row is on. */
export const alertRules = pgTable(
  'alert_rules',
  {
    rule: text('rule').primaryKey(),
    enabled: boolean('enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('alert_rules_rule_check', sql`${t.rule} in ('below-threshold', 'consecutive-absences', 'register-missing')`)],
);

/**
 * An alert's episode: opened when a rule fires for a student and scope (a subject code, '' for the
 * overall figure or whole-day registers; for register-missing `<class>/<date>/<period>` and no
 * PIN), closed when it re-arms. At most one open episode per rule, PIN, scope and term: the
 * unique index is what makes a rule fire once, however many processes evaluate it.
 */
export const alertEpisodes = pgTable(
  'alert_episodes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    rule: text('rule').notNull(),
    pin: text('pin'),
    scope: text('scope').notNull().default(''),
    termId: uuid('term_id').references(() => terms.id, { onDelete: 'cascade' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** What the rule saw when it fired (a percentage, the absence dates): never a name. */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('alert_episodes_open_key')
      .on(t.rule, sql`coalesce(${t.pin}, '')`, t.scope, sql`coalesce(${t.termId}, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`${t.closedAt} is null`),
    index('alert_episodes_pin_idx').on(t.pin),
    check('alert_episodes_rule_check', sql`${t.rule} in ('below-threshold', 'consecutive-absences', 'register-missing')`),
    normalPin('alert_episodes_pin_normal_check', t.pin),
  ],
);

/** A notice in the portal's bell: one per account and episode. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    episodeId: bigint('episode_id', { mode: 'number' }).references(() => alertEpisodes.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    /**
     * What the notice says, as its kind's values (figures, dates, a subject's name), so that it is
     * written in the language of whoever reads it; title and body keep its English. Null in
     * notices made before the portal spoke several languages: those show their title and body.
     */
    params: jsonb('params').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** When it went out by e-mail, on its own or in a digest; null while it waits for one. */
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_user_episode_key').on(t.userId, t.episodeId),
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

/** How an account wants its alerts by e-mail; no row: the daily digest. */
export const notificationPrefs = pgTable(
  'notification_prefs',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull().default('daily'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('notification_prefs_email_check', sql`${t.email} in ('immediate', 'daily', 'weekly', 'never')`)],
);

/**
 * The runs of scheduled work, one row per task and due time: inserted by the run that does the
 * work, in the work's transaction, so that a time is done once however many processes look and
 * however often the portal restarts.
 */
export const jobSlots = pgTable(
  'job_slots',
  {
    task: text('task').notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.task, t.slot] })],
);

/**
 * Self check-in (decision 45): a register of today opened by faculty for a few minutes, during
 * which students check themselves in with a code that changes every 10 seconds. The codes are
 * derived from `secret` and the time, so nothing is stored per code. At most one open check-in
 * per register: one not closed (an expired one is closed when the next is opened).
 */
export const checkins = pgTable(
  'checkins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    className: text('class_name')
      .notNull()
      .references(() => classes.name, { onUpdate: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    period: integer('period').notNull().default(0),
    secret: bytea('secret').notNull(),
    openedBy: uuid('opened_by').references(() => users.id, { onDelete: 'set null' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    // Null: a check-in is never late.
    lateAfterMinutes: integer('late_after_minutes'),
    campusOnly: boolean('campus_only').notNull().default(false),
    // Scans of this check-in that were refused (an expired or forged code, a closed check-in, a
    // student not on the roster, an address off campus): shown to faculty.
    refusedCount: integer('refused_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('checkins_open_key').on(t.className, t.date, t.period).where(sql`${t.closedAt} is null`),
    index('checkins_register_idx').on(t.className, t.date, t.period),
    check('checkins_period_check', sql`${t.period} between 0 and 12`),
    check('checkins_late_check', sql`${t.lateAfterMinutes} is null or ${t.lateAfterMinutes} between 0 and 30`),
  ],
);

/** A browser's signing key (WebCrypto P-256, its private half never leaves the browser), per student. */
export const deviceKeys = pgTable(
  'device_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pin: text('pin').notNull(),
    // The public key, uncompressed (65 bytes), in base64url.
    publicKey: text('public_key').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_keys_pin_key').on(t.pin, t.publicKey),
    index('device_keys_public_key_idx').on(t.publicKey),
    normalPin('device_keys_pin_normal_check', t.pin),
  ],
);

/**
 * A student's check-in: the status it wrote (or the mark faculty had set, kept), when, with which
 * device key, and the flags faculty see (a shared device, a new device, no device key). Faculty can
 * remove it: the mark goes back to `previous_status` (absent when the register had no mark).
 */
export const checkinEntries = pgTable(
  'checkin_entries',
  {
    checkinId: uuid('checkin_id')
      .notNull()
      .references(() => checkins.id, { onDelete: 'cascade' }),
    pin: text('pin').notNull(),
    status: text('status', { enum: MARK_STATUSES }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    deviceKeyId: uuid('device_key_id').references(() => deviceKeys.id, { onDelete: 'set null' }),
    flags: text('flags').array().notNull().default(sql`'{}'::text[]`),
    // True when faculty had set the mark already: the check-in is recorded, the mark left alone.
    markKept: boolean('mark_kept').notNull().default(false),
    previousStatus: text('previous_status', { enum: MARK_STATUSES }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedBy: uuid('removed_by').references(() => users.id, { onDelete: 'set null' }),
    removedReason: text('removed_reason'),
  },
  (t) => [
    primaryKey({ columns: [t.checkinId, t.pin] }),
    index('checkin_entries_pin_idx').on(t.pin, t.at),
    index('checkin_entries_device_idx').on(t.deviceKeyId),
    statusCheck('checkin_entries_status_check', t.status),
    normalPin('checkin_entries_pin_normal_check', t.pin),
  ],
);
