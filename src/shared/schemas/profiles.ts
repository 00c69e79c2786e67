import { z } from './zod';
import { HttpUrlSchema, PinSchema } from './common';

export const REQUIRED_FIELDS_MESSAGE = 'Name, Designation, and PIN Number are required';
export const DUPLICATE_PIN_MESSAGE = 'User with this PIN already exists';
export const PROFILE_NOT_FOUND_MESSAGE = 'No profile found for this PIN';
export const NOT_ON_ROSTER_MESSAGE = 'This PIN Number is not on the roster';
export const OWN_PIN_ONLY_MESSAGE = 'You can register only your own PIN Number';
/** Added to the fixed success message when the registrant was not signed in as the student. */
export const PENDING_REVIEW_MESSAGE = 'It will appear once faculty have reviewed it.';

/** An anonymous registration is pending until faculty approve it; it shows nowhere else meanwhile. */
export const PROFILE_STATUSES = ['pending', 'approved'] as const;
export const ProfileStatusSchema = z.enum(PROFILE_STATUSES);
export type ProfileStatus = z.infer<typeof ProfileStatusSchema>;

export const NAME_MAX = 200;
export const DESIGNATION_MAX = 200;
export const IMAGE_ALT_MAX = 300;
export const URL_MAX = 2048;

/** The optional links of a profile, with the label each one has on the registration form. */
export const PROFILE_LINK_FIELDS = {
  imageUrl: 'Profile Image URL',
  linkedin: 'LinkedIn URL',
  github: 'GitHub URL',
  leetcode: 'LeetCode URL',
  resume: 'Resume Link',
  portfolio: 'Portfolio Link',
} as const;
export type ProfileLinkField = keyof typeof PROFILE_LINK_FIELDS;

/** A required text: missing, blank and whitespace-only all give the one fixed message. */
function requiredText(label: string, max: number) {
  return z
    .string({ error: REQUIRED_FIELDS_MESSAGE })
    .trim()
    .min(1, REQUIRED_FIELDS_MESSAGE)
    .max(max, `${label} has at most ${max} characters`);
}

const RegistrationPinSchema = z
  .string({ error: REQUIRED_FIELDS_MESSAGE })
  .trim()
  .min(1, REQUIRED_FIELDS_MESSAGE)
  .pipe(PinSchema);

/**
 * Empty means absent: '' and null become null (clear the field), a missing key stays undefined
 * (on an update: leave the field as it is).
 */
function emptyToNull(value: string | null | undefined): string | null | undefined {
  return value === undefined ? undefined : value || null;
}

/** An optional http(s) link; the message names the field so the form can say which one is wrong. */
function optionalLink(label: string) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(URL_MAX, `${label} has at most ${URL_MAX} characters`)
    .refine((value) => value === '' || HttpUrlSchema.safeParse(value).success, {
      message: `${label} must be a link starting with http:// or https://`,
    })
    .nullish()
    .transform(emptyToNull);
}

const optionalAlt = z
  .string({ error: 'Image Description must be text' })
  .trim()
  .max(IMAGE_ALT_MAX, `Image Description has at most ${IMAGE_ALT_MAX} characters`)
  .nullish()
  .transform(emptyToNull);

/** Uploaded profile photos (decision 16): PNG, JPEG or WebP, at most 2 MB. */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
export const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const PHOTO_TYPE_MESSAGE = 'The photo must be a PNG, JPEG or WebP image';
export const PHOTO_SIZE_MESSAGE = 'The photo must be at most 2 MB';
const PHOTO_DATA_URL = /^data:image\/(?:png|jpeg|webp);base64,[A-Za-z0-9+/]*={0,2}$/;
/** The longest data URL that can hold PHOTO_MAX_BYTES: base64 takes 4 characters per 3 bytes. */
const PHOTO_DATA_URL_MAX = 'data:image/jpeg;base64,'.length + Math.ceil(PHOTO_MAX_BYTES / 3) * 4;

/** The bytes a base64 text stands for, without decoding it. */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

/**
 * A photo as the browser reads a file (`FileReader.readAsDataURL`): a base64 data URL of a PNG,
 * JPEG or WebP image of at most 2 MB. The server checks the bytes themselves, not only the label.
 */
export const PhotoUploadSchema = z
  .string({ error: PHOTO_TYPE_MESSAGE })
  .max(PHOTO_DATA_URL_MAX, PHOTO_SIZE_MESSAGE)
  .refine((value) => PHOTO_DATA_URL.test(value), { message: PHOTO_TYPE_MESSAGE, abort: true })
  .refine((value) => base64Bytes(value.slice(value.indexOf(',') + 1)) <= PHOTO_MAX_BYTES, PHOTO_SIZE_MESSAGE);

const profileFields = {
  name: requiredText('Full Name', NAME_MAX),
  designation: requiredText('Designation/Branch', DESIGNATION_MAX),
  pin: RegistrationPinSchema,
  imageUrl: optionalLink(PROFILE_LINK_FIELDS.imageUrl),
  imageAlt: optionalAlt,
  linkedin: optionalLink(PROFILE_LINK_FIELDS.linkedin),
  github: optionalLink(PROFILE_LINK_FIELDS.github),
  leetcode: optionalLink(PROFILE_LINK_FIELDS.leetcode),
  resume: optionalLink(PROFILE_LINK_FIELDS.resume),
  portfolio: optionalLink(PROFILE_LINK_FIELDS.portfolio),
  /** An uploaded photo, shown instead of the image URL; absent or null: none. */
  photo: PhotoUploadSchema.nullish(),
};

/** Body of POST /api/registrations: the registration form as typed. */
export const RegistrationRequestSchema = z.object(profileFields, { error: REQUIRED_FIELDS_MESSAGE });
export type RegistrationRequest = z.input<typeof RegistrationRequestSchema>;
export type RegistrationInput = z.output<typeof RegistrationRequestSchema>;

/** Body of PATCH /api/registrations/:id: any of the fields, under the same rules; '' clears a link. */
export const ProfileUpdateRequestSchema = z.object(
  {
    name: profileFields.name.optional(),
    designation: profileFields.designation.optional(),
    pin: profileFields.pin.optional(),
    imageUrl: profileFields.imageUrl,
    imageAlt: profileFields.imageAlt,
    linkedin: profileFields.linkedin,
    github: profileFields.github,
    leetcode: profileFields.leetcode,
    resume: profileFields.resume,
    portfolio: profileFields.portfolio,
    /** A new photo replaces the old one, null removes it, absent leaves it as it is. */
    photo: profileFields.photo,
  },
  { error: 'Send the changes as a JSON object' },
);
export type ProfileUpdateRequest = z.input<typeof ProfileUpdateRequestSchema>;
export type ProfileUpdate = z.output<typeof ProfileUpdateRequestSchema>;

/** A profile's links as the API returns them: each an address, or null. */
export const ProfileLinksSchema = z.object({
  linkedin: z.string().nullable(),
  github: z.string().nullable(),
  leetcode: z.string().nullable(),
  resume: z.string().nullable(),
  portfolio: z.string().nullable(),
});

/** A registered profile as the API returns it; absent optional fields are null. */
export const ProfileSchema = z.object({
  id: z.string(),
  pin: z.string(),
  name: z.string(),
  designation: z.string(),
  imageUrl: z.string().nullable(),
  /** The uploaded photo's address on this portal (it changes with the photo), or null; shown before imageUrl. */
  photoUrl: z.string().nullable(),
  imageAlt: z.string().nullable(),
  ...ProfileLinksSchema.shape,
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: ProfileStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const ProfileListSchema = z.array(ProfileSchema);

export const ProfileIdParamsSchema = z.object({ id: z.string() });

/** GET /api/registrations: approved profiles unless staff ask for the pending ones (or all). */
export const ProfileListQuerySchema = z.object({
  status: z.enum(['pending', 'approved', 'all']).default('approved'),
});

/** Where the portal serves a profile's uploaded photo; the version makes a new photo a new address. */
export function profilePhotoUrl(profileId: string, version: string): string {
  return `/api/registrations/${profileId}/photo?v=${encodeURIComponent(version)}`;
}

export const ProfilePhotoQuerySchema = z.object({ v: z.string().max(64).optional() });
