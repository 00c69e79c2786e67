import { z } from './zod';
import { AuditEntrySchema } from './audit';
import { ProfileLinksSchema } from './profiles';

const Timestamp = z.string().describe('An ISO 8601 timestamp');
const MarkStatus = z.enum(['present', 'absent', 'late', 'excused']);

/** The file name of a student's personal data; a PIN's '/' is not allowed in file names. */
export function personalDataFilename(pin: string): string {
  return `personal-data-${pin.replace(/\//g, '-')}.json`;
}

/**
 * Everything the portal holds about one student, as one JSON document: the roster row, the
 * account (never its password hash, TOTP secret, recovery codes or sign-in tokens), the profile
 * with its photo, every mark with its changes, the correction requests, the contact messages sent
 * from the student's e-mail, the e-mails sent to it, and the audit entries that name the student.
 */
export const PersonalDataSchema = z.object({
  exportedAt: Timestamp,
  pin: z.string(),
  roster: z
    .object({ pin: z.string(), name: z.string(), className: z.string(), withdrawnAt: Timestamp.nullable() })
    .nullable()
    .describe('The roster row, or null when the PIN is not on the roster'),
  account: z
    .object({
      email: z.string(),
      name: z.string(),
      role: z.string(),
      createdAt: Timestamp,
      disabledAt: Timestamp.nullable(),
      lastSignInAt: Timestamp.nullable(),
      hasPassword: z.boolean(),
      singleSignOn: z.boolean().describe('Whether the account has signed in through the identity provider'),
      twoStepSignIn: z.boolean().describe('Whether TOTP is on (the secret itself is never exported)'),
      signedInBrowsers: z.number().int().describe('Sessions not ended yet (their tokens are never exported)'),
    })
    .nullable(),
  profile: z
    .object({
      name: z.string(),
      designation: z.string(),
      status: z.enum(['pending', 'approved']),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      imageUrl: z.string().nullable(),
      imageAlt: z.string().nullable(),
      ...ProfileLinksSchema.shape,
      photo: z.string().nullable().describe('The uploaded photo as a data URL, or null'),
      createdAt: Timestamp,
      updatedAt: Timestamp,
    })
    .nullable(),
  marks: z.array(
    z.object({
      className: z.string(),
      date: z.string(),
      period: z.number().int(),
      subject: z.string().nullable(),
      name: z.string().describe('The name the register holds for the student'),
      status: MarkStatus,
      changes: z.array(
        z.object({ at: Timestamp, from: MarkStatus.nullable(), to: MarkStatus, reason: z.string().nullable() }),
      ),
    }),
  ),
  corrections: z.array(
    z.object({
      className: z.string(),
      date: z.string(),
      period: z.number().int(),
      reason: z.string(),
      state: z.enum(['open', 'accepted', 'declined']),
      reply: z.string().nullable(),
      createdAt: Timestamp,
      decidedAt: Timestamp.nullable(),
    }),
  ),
  contactMessages: z.array(
    z.object({ name: z.string(), email: z.string(), phone: z.string().nullable(), subject: z.string(), message: z.string(), createdAt: Timestamp }),
  ),
  emails: z
    .array(z.object({ subject: z.string(), status: z.string(), createdAt: Timestamp, sentAt: Timestamp.nullable() }))
    .describe("E-mails the portal sent or queued to the student's e-mail (their text is left out: it may hold a one-time link)"),
  auditEntries: z.array(AuditEntrySchema),
  alerts: z
    .array(z.object({ rule: z.string(), scope: z.string(), openedAt: Timestamp, closedAt: Timestamp.nullable(), detail: z.record(z.string(), z.unknown()) }))
    .describe("The alerts' episodes about the student (scope: a subject's code, '' overall)"),
  notifications: z
    .array(z.object({ kind: z.string(), title: z.string(), body: z.string(), createdAt: Timestamp, readAt: Timestamp.nullable() }))
    .describe("The notices in the student's account's bell"),
  checkins: z
    .array(
      z.object({
        className: z.string(),
        date: z.string(),
        period: z.number().int(),
        status: MarkStatus,
        at: Timestamp,
        markKept: z.boolean(),
        flags: z.array(z.string()),
        removedAt: Timestamp.nullable(),
        removedReason: z.string().nullable(),
      }),
    )
    .describe("The student's self check-ins, with the flags faculty saw and any removal's reason"),
  deviceKeys: z
    .array(z.object({ publicKey: z.string(), createdAt: Timestamp, lastUsedAt: Timestamp }))
    .describe('The public keys of the browsers the student checked in with'),
});
export type PersonalData = z.infer<typeof PersonalDataSchema>;

/** POST /api/admin/students/:pin/erase: the PIN typed again, so that no student is erased by a slip. */
export const EraseStudentSchema = z.object({
  confirm: z.string({ error: 'Type the PIN in confirm' }).max(64, 'Type the PIN in confirm'),
});
export type EraseStudent = z.infer<typeof EraseStudentSchema>;

export const ErasureSchema = z.object({
  pseudonym: z.string().describe('ERASED- and 8 hex digits: what the registers, counts and trail now hold instead of the name, PIN and e-mail'),
  account: z.boolean().describe('Whether an account was deleted'),
  profile: z.boolean().describe('Whether a profile (and its photo) was deleted'),
  marks: z.number().int().describe('Marks kept under the pseudonym'),
  corrections: z.number().int().describe('Correction requests deleted'),
  contactMessages: z.number().int().describe("Contact messages from the student's e-mail deleted"),
  auditEntries: z.number().int().describe('Audit entries whose personal data was replaced'),
  checkins: z.number().int().describe('Self check-ins kept under the pseudonym'),
  deviceKeys: z.number().int().describe("The keys of the student's devices deleted"),
});
export type Erasure = z.infer<typeof ErasureSchema>;
