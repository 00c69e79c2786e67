import { z } from './zod';
import { EMAIL_MESSAGE, EMAIL_PATTERN } from '../sign-in-rules';

/** The result lines of the contact form, word for word (fixed words: docs/product.md). */
export const CONTACT_SENT_MESSAGE = 'Message sent successfully!';
export const CONTACT_FAILED_MESSAGE = 'Error sending message!';
export const CONTACT_MESSAGE_NOT_FOUND = 'Message not found';

export const CONTACT_LIMITS = {
  name: 200,
  // RFC 5321 caps a forward path at 256 octets including the angle brackets.
  email: 254,
  phone: 40,
  subject: 200,
  message: 5000,
} as const;

/**
 * The hidden field that people never see and spam robots fill in. A value is accepted (so the
 * robot learns nothing) but the message is dropped.
 */
export const HONEYPOT_FIELD = 'website';

function requiredText(label: string, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} has at most ${max} characters`);
}

const PHONE_MESSAGE = 'Please enter a valid phone number';

const ContactEmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(CONTACT_LIMITS.email, `Email has at most ${CONTACT_LIMITS.email} characters`)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: EMAIL_MESSAGE }));

/** Optional; when given it must look like a phone number (digits with the usual separators). */
const ContactPhoneSchema = z
  .string({ error: PHONE_MESSAGE })
  .trim()
  .max(CONTACT_LIMITS.phone, `Phone Number has at most ${CONTACT_LIMITS.phone} characters`)
  .refine((value) => value === '' || (/^\+?[0-9 ()./-]+$/.test(value) && /[0-9].*[0-9].*[0-9]/.test(value)), {
    message: PHONE_MESSAGE,
  })
  .nullish()
  .transform((value) => value || null);

/** The contact form as typed: name, email, phone, subject, message. */
export const ContactFormSchema = z.object(
  {
    name: requiredText('Full Name', CONTACT_LIMITS.name),
    email: ContactEmailSchema,
    phone: ContactPhoneSchema,
    subject: requiredText('Subject', CONTACT_LIMITS.subject),
    message: requiredText('Message', CONTACT_LIMITS.message),
    // Bounded by the request size limit only: a robot that fills it gets the normal answer.
    [HONEYPOT_FIELD]: z.string().nullish(),
  },
  { error: 'Send the message as a JSON object' },
);
/** What the form holds and POST /api/contact accepts. */
export type ContactFormValues = z.input<typeof ContactFormSchema>;
/** The message after trimming; an empty phone is null. */
export type ContactInput = z.output<typeof ContactFormSchema>;

export const ContactSentSchema = z.object({ message: z.string() });
export type ContactSent = z.infer<typeof ContactSentSchema>;

/** The address, phone and e-mail blocks of the contact page, from the portal's configuration. */
export const ContactInfoSchema = z.object({
  address: z.string(),
  phone: z.string(),
  email: z.string(),
});
export type ContactInfo = z.infer<typeof ContactInfoSchema>;

/**
 * Where a message stands with the form-submission service:
 * forwarded; pending (waiting for its first or next try); failed (tries given up);
 * off (no service is configured, the message is only in the inbox).
 */
export const FORWARD_STATUSES = ['forwarded', 'pending', 'failed', 'off'] as const;
export const ForwardStatusSchema = z.enum(FORWARD_STATUSES);
export type ForwardStatus = z.infer<typeof ForwardStatusSchema>;

/** One message in the faculty inbox. */
export const ContactMessageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
  forwardStatus: ForwardStatusSchema,
  forwardedAt: z.string().nullable(),
  forwardError: z.string().nullable(),
  forwardAttempts: z.number().int(),
});
export type ContactMessage = z.infer<typeof ContactMessageSchema>;

export const ContactMessageListSchema = z.array(ContactMessageSchema);

export const ContactMessageParamsSchema = z.object({ id: z.string() });

export const ContactReadUpdateSchema = z.object(
  { read: z.boolean({ error: 'read must be true or false' }) },
  { error: 'Send { "read": true } or { "read": false }' },
);
export type ContactReadUpdate = z.infer<typeof ContactReadUpdateSchema>;
