import { z } from './zod';
import { ClassParamSchema, MarkStatusSchema, PeriodSchema } from './attendance';
import { PinSchema } from './common';

/**
 * Self check-in (decision 45): faculty open a check-in for a register of today; students scan the
 * QR on the screen, whose code changes every 10 seconds, or type its six letters, and their mark
 * is written present (or late). Proxies are flagged for faculty, not blocked.
 */

export const MAX_CHECKIN_MINUTES = 30;
export const DEFAULT_CHECKIN_MINUTES = 10;

export const OpenCheckinRequestSchema = z.object({
  className: ClassParamSchema,
  period: PeriodSchema.default(0),
  minutes: z
    .number({ message: 'minutes is a whole number from 1 to 30' })
    .int('minutes is a whole number from 1 to 30')
    .min(1, 'minutes is a whole number from 1 to 30')
    .max(MAX_CHECKIN_MINUTES, 'minutes is a whole number from 1 to 30')
    .default(DEFAULT_CHECKIN_MINUTES),
  /** Minutes after opening from which a check-in is marked late; absent: never late. */
  lateAfterMinutes: z
    .number({ message: 'lateAfterMinutes is a whole number from 0 to 30' })
    .int('lateAfterMinutes is a whole number from 0 to 30')
    .min(0, 'lateAfterMinutes is a whole number from 0 to 30')
    .max(MAX_CHECKIN_MINUTES, 'lateAfterMinutes is a whole number from 0 to 30')
    .nullable()
    .optional(),
  /** Accept scans only from the campus networks (PORTAL_CAMPUS_NETWORKS). */
  campusOnly: z.boolean().default(false),
});
export type OpenCheckinRequest = z.input<typeof OpenCheckinRequestSchema>;

export const OpenedCheckinSchema = z.object({ id: z.string(), closesAt: z.string() });
export type OpenedCheckin = z.infer<typeof OpenedCheckinSchema>;

export const CheckinParamsSchema = z.object({ id: z.uuid({ message: 'There is no such check-in' }) });

/**
 * Why faculty should look at a check-in: one device checked in two students of this check-in
 * (`shared-device`, on both), the student's device is not the one of their last check-in this
 * term (`new-device`), the scan came without a device key (`no-device-key`), or with a signature
 * that does not verify or is not of now (`invalid-signature`). A shared address is not a flag.
 */
export const CHECKIN_FLAGS = ['shared-device', 'new-device', 'no-device-key', 'invalid-signature'] as const;
export type CheckinFlag = (typeof CHECKIN_FLAGS)[number];

export const CheckinEntrySchema = z.object({
  pin: z.string(),
  name: z.string(),
  at: z.string(),
  /** The mark the check-in gave (present or late), or, when `markKept`, faculty's mark that it left. */
  status: MarkStatusSchema,
  markKept: z.boolean(),
  flags: z.array(z.enum(CHECKIN_FLAGS)),
  removed: z.object({ at: z.string(), reason: z.string() }).nullable(),
});
export type CheckinEntry = z.infer<typeof CheckinEntrySchema>;

/** The code of the current 10-second slot: what the projector shows until `slotEndsAt`. */
export const CheckinCodeSchema = z.object({
  token: z.string(),
  /** What the QR holds: the portal's address, /c/, the token. */
  url: z.string(),
  /** Six letters, for a student who types the code on their home page. */
  typedCode: z.string(),
  slotEndsAt: z.string(),
});

export const CheckinSchema = z.object({
  id: z.string(),
  class: z.string(),
  date: z.string(),
  period: z.number().int(),
  subject: z.object({ code: z.string(), name: z.string() }).nullable(),
  openedAt: z.string(),
  closesAt: z.string(),
  closedAt: z.string().nullable(),
  state: z.enum(['open', 'closed']),
  lateAfterMinutes: z.number().int().nullable(),
  campusOnly: z.boolean(),
  /** Null once closed. */
  code: CheckinCodeSchema.nullable(),
  entries: z.array(CheckinEntrySchema),
  /** Students checked in and not removed. */
  checkedIn: z.number().int(),
  /** Scans of this check-in refused (an expired or wrong code, closed, not on the roster, off campus). */
  refusedCount: z.number().int(),
});
export type Checkin = z.infer<typeof CheckinSchema>;

/**
 * A check-in without its code: what GET /api/checkins/:id/events sends, as `checkin` events, when
 * it opens and after each change of the list, the refused count or the state.
 */
export const CheckinListSchema = CheckinSchema.omit({ code: true });
export type CheckinList = z.infer<typeof CheckinListSchema>;
/** The name of a check-in stream's events. */
export const CHECKIN_EVENT = 'checkin';

const DeviceProof = {
  /** The browser's public key: WebCrypto's `raw` export of a P-256 key (65 bytes), base64url. */
  deviceKey: z.string().max(200).optional(),
  /** ECDSA P-256 with SHA-256, raw r||s (64 bytes) base64url, of `portal-checkin\n<subject>\n<signedAt>`. */
  signature: z.string().max(200).optional(),
  /** When the browser signed, in milliseconds since the epoch. */
  signedAt: z.number().int().nonnegative().optional(),
};

export const ScanRequestSchema = z
  .object({
    /** The QR's token (what follows /c/). */
    token: z.string().max(200).optional(),
    /** The six letters typed on the student's home page. */
    code: z.string().max(20).optional(),
    ...DeviceProof,
  })
  .refine((body) => (body.token === undefined) !== (body.code === undefined), { message: 'Send either the token scanned or the code typed' });
export type ScanRequest = z.infer<typeof ScanRequestSchema>;

export const PendingScanRequestSchema = z.object(DeviceProof);
export type PendingScanRequest = z.infer<typeof PendingScanRequestSchema>;

export const ScanResultSchema = z.object({
  checkinId: z.string(),
  class: z.string(),
  date: z.string(),
  period: z.number().int(),
  subject: z.object({ code: z.string(), name: z.string() }).nullable(),
  /** The mark: present or late; or, when `markKept`, the one faculty had set. */
  status: MarkStatusSchema,
  at: z.string(),
  markKept: z.boolean(),
});
export type ScanResult = z.infer<typeof ScanResultSchema>;

export const RemoveCheckinEntrySchema = z.object({
  pin: PinSchema,
  reason: z.string().trim().min(1, 'Give the reason for removing the check-in').max(500, 'A reason has at most 500 characters'),
});

/** A scan kept while the student signs in lasts this long. */
export const PENDING_SCAN_MS = 3 * 60_000;
