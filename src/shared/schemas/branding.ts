import { z } from './zod';

/**
 * GET /api/branding: the university's own name, colour and logo (decision 16), shown beside the
 * portal's fixed strings ('University Portal', 'Attendance'), never instead of them. Null when
 * the operator has not set them.
 */
export const BrandingSchema = z.object({
  name: z.string().nullable(),
  /** `#rrggbb`: the primary colour; the pages derive its ten shades. */
  color: z.string().nullable(),
  /** The logo's address on this portal, or null. */
  logoUrl: z.string().nullable(),
});
export type Branding = z.infer<typeof BrandingSchema>;

export const BRANDING_LOGO_PATH = '/api/branding/logo';
