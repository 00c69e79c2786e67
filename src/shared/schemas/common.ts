import { z } from './zod';
import { isIsoDate } from '../dates';

/** Every error the API sends has this body. */
export const ErrorSchema = z.object({
  message: z.string(),
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional(),
});
export type ApiErrorBody = z.infer<typeof ErrorSchema>;

export const IsoDateSchema = z
  .string()
  .refine(isIsoDate, { message: 'Dates are written YYYY-MM-DD' });

/**
 * A student's PIN: letters and digits (and - /), at most 32 characters, normalised to trimmed
 * upper case wherever it is stored, compared or looked up, so ' 23b81a0101' is 23B81A0101.
 */
export const PinSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a PIN number')
  .max(32, 'A PIN has at most 32 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9/-]*$/, 'A PIN holds only letters, digits, - and /')
  .toUpperCase();

/** An http(s) link; nothing else a user types is ever used as a URL. */
export const HttpUrlSchema = z
  .string()
  .trim()
  .max(2048, 'Links have at most 2048 characters')
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'Links must start with http:// or https://' },
  );
