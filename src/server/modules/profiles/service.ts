import { canSeeStudent, isStudent } from '../../../shared/access';
import type { User } from '../../../shared/schemas/auth';
import {
  DUPLICATE_PIN_MESSAGE,
  PROFILE_NOT_FOUND_MESSAGE,
  type Profile,
  type ProfileUpdate,
  type RegistrationInput,
} from '../../../shared/schemas/profiles';
import { OWN_RECORD_ONLY_MESSAGE } from '../../../shared/schemas/students';
import type { Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { conflict, forbidden, notFound } from '../../http-error';
import * as repo from './repository';
import type { ProfileChanges, ProfileRow } from './repository';

export const PROFILE_ID_NOT_FOUND_MESSAGE = 'Profile not found';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toProfileResponse(row: ProfileRow): Profile {
  return {
    id: row.id,
    pin: row.pin,
    name: row.name,
    designation: row.designation,
    imageUrl: row.imageUrl,
    imageAlt: row.imageAlt,
    linkedin: row.linkedin,
    github: row.github,
    leetcode: row.leetcode,
    resume: row.resume,
    portfolio: row.portfolio,
    email: row.email,
    phone: row.phone,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The unique index decides, not a look-up first: two registrations racing for one PIN both pass
 * a look-up, but only one insert succeeds.
 */
async function mapDuplicatePin<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error, repo.PROFILE_PIN_KEY)) throw conflict(DUPLICATE_PIN_MESSAGE);
    throw error;
  }
}

export async function register(db: Executor, input: RegistrationInput): Promise<Profile> {
  const row = await mapDuplicatePin(
    repo.insertProfile(db, {
      pin: input.pin,
      name: input.name,
      designation: input.designation,
      imageUrl: input.imageUrl ?? null,
      imageAlt: input.imageAlt ?? null,
      linkedin: input.linkedin ?? null,
      github: input.github ?? null,
      leetcode: input.leetcode ?? null,
      resume: input.resume ?? null,
      portfolio: input.portfolio ?? null,
    }),
  );
  return toProfileResponse(row);
}

/** Staff see every profile; a student only their own (DESIGN.md section 6.1). */
export async function listVisibleProfiles(db: Executor, viewer: User): Promise<Profile[]> {
  if (isStudent(viewer)) {
    const own = viewer.pin ? await repo.findProfileByPin(db, viewer.pin) : undefined;
    return own ? [toProfileResponse(own)] : [];
  }
  return (await repo.listProfiles(db)).map(toProfileResponse);
}

/** The profile registered on a PIN, for a caller that has already checked who may see it. */
export async function findProfile(db: Executor, pin: string): Promise<Profile | null> {
  const row = await repo.findProfileByPin(db, pin);
  return row ? toProfileResponse(row) : null;
}

export async function getProfileByPin(db: Executor, viewer: User, pin: string): Promise<Profile> {
  if (!canSeeStudent(viewer, pin)) throw forbidden(OWN_RECORD_ONLY_MESSAGE);
  const row = await repo.findProfileByPin(db, pin);
  if (!row) throw notFound(PROFILE_NOT_FOUND_MESSAGE);
  return toProfileResponse(row);
}

export async function updateProfileById(db: Executor, id: string, update: ProfileUpdate): Promise<Profile> {
  if (!UUID.test(id)) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
  // Only the fields that were sent change: undefined means "not sent", null means "clear".
  const changes = Object.fromEntries(
    Object.entries(update).filter(([, value]) => value !== undefined),
  ) as ProfileChanges;
  const row = await mapDuplicatePin(repo.updateProfile(db, id, changes));
  if (!row) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
  return toProfileResponse(row);
}

export async function deleteProfileById(db: Executor, id: string): Promise<void> {
  if (!UUID.test(id) || !(await repo.deleteProfile(db, id))) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
}
