import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type UseFormReturn } from 'react-hook-form';
import {
  NOT_ON_ROSTER_MESSAGE,
  OWN_PIN_ONLY_MESSAGE,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
  PROFILE_LINK_FIELDS,
  RegistrationRequestSchema,
  type Profile,
  type RegistrationInput,
  type RegistrationRequest,
} from '../../../../shared/schemas/profiles';
import { ApiError, fieldErrorsOf } from '../../../lib/api-client';

export type ProfileForm = UseFormReturn<RegistrationRequest, unknown, RegistrationInput>;
export type ProfileFieldName = keyof RegistrationRequest;

/** The text fields; the photo is a file the user picks, absent until they do. */
export const EMPTY_PROFILE: Required<{ [K in Exclude<ProfileFieldName, 'photo'>]: string }> & { photo?: string | null } = {
  name: '',
  designation: '',
  pin: '',
  imageUrl: '',
  imageAlt: '',
  linkedin: '',
  github: '',
  leetcode: '',
  resume: '',
  portfolio: '',
};

/** The form's values for an existing profile: absent fields are empty boxes. */
export function profileToValues(profile: Profile): typeof EMPTY_PROFILE {
  return {
    name: profile.name,
    designation: profile.designation,
    pin: profile.pin,
    imageUrl: profile.imageUrl ?? '',
    imageAlt: profile.imageAlt ?? '',
    linkedin: profile.linkedin ?? '',
    github: profile.github ?? '',
    leetcode: profile.leetcode ?? '',
    resume: profile.resume ?? '',
    portfolio: profile.portfolio ?? '',
  };
}

/** The registration rules of the API, checked as the user types (the same zod schema). */
export function useProfileForm(defaultValues: typeof EMPTY_PROFILE = EMPTY_PROFILE): ProfileForm {
  return useForm<RegistrationRequest, unknown, RegistrationInput>({
    resolver: zodResolver(RegistrationRequestSchema),
    mode: 'onTouched',
    reValidateMode: 'onChange',
    defaultValues,
  });
}

const FIELD_NAMES = new Set<string>(['name', 'designation', 'pin', 'imageAlt', 'photo', ...Object.keys(PROFILE_LINK_FIELDS)]);

/** The server's refusals of the photo's bytes (it reads them; the form only sees the label). */
const PHOTO_MESSAGES = new Set<string>([PHOTO_TYPE_MESSAGE, PHOTO_SIZE_MESSAGE]);

/** The refusals that are about the PIN although the server names no field: taken, not on the roster, not yours. */
const PIN_MESSAGES = new Set<string>([NOT_ON_ROSTER_MESSAGE, OWN_PIN_ONLY_MESSAGE]);

/**
 * Puts the server's refusals on the fields they name: a 400 lists them (`body.github`), a 409 and
 * the roster and own-PIN refusals are about the PIN. Returns whether any field was marked.
 */
export function markServerErrors(form: ProfileForm, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  let marked = false;
  // Recognised by the server's own words; shown in the language of the page.
  if (error.status === 409 || PIN_MESSAGES.has(error.said)) {
    form.setError('pin', { type: 'server', message: error.message });
    return true;
  }
  if (PHOTO_MESSAGES.has(error.said)) {
    form.setError('photo', { type: 'server', message: error.message });
    return true;
  }
  for (const { field, message } of fieldErrorsOf(error)) {
    if (FIELD_NAMES.has(field)) {
      form.setError(field as ProfileFieldName, { type: 'server', message });
      marked = true;
    }
  }
  return marked;
}
