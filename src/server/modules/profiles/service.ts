import { canEditProfile, canSeeStudent, isStaff, isStudent } from '../../../shared/access';
import type { User } from '../../../shared/schemas/auth';
import {
  DUPLICATE_PIN_MESSAGE,
  NOT_ON_ROSTER_MESSAGE,
  OWN_PIN_ONLY_MESSAGE,
  PROFILE_NOT_FOUND_MESSAGE,
  profilePhotoUrl,
  type Profile,
  type ProfileStatus,
  type ProfileUpdate,
  type RegistrationInput,
} from '../../../shared/schemas/profiles';
import { OWN_RECORD_ONLY_MESSAGE } from '../../../shared/schemas/students';
import type { Executor } from '../../db/client';
import { isUuid } from '../../db/ids';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, conflict, forbidden, notFound } from '../../http-error';
import { actorOf, recordAudit } from '../audit/service';
import { isOnRoster } from '../roster/service';
import { bumpDataVersion } from '../data-version/service';
import { reencodePhoto, type StoredPhoto } from './photo';
import * as repo from './repository';
import type { ProfileChanges, ProfileRow } from './repository';

export const PROFILE_ID_NOT_FOUND_MESSAGE = 'Profile not found';


export function toProfileResponse(row: ProfileRow): Profile {
  return {
    id: row.id,
    pin: row.pin,
    name: row.name,
    designation: row.designation,
    imageUrl: row.imageUrl,
    photoUrl: row.photoVersion ? profilePhotoUrl(row.id, row.photoVersion) : null,
    imageAlt: row.imageAlt,
    linkedin: row.linkedin,
    github: row.github,
    leetcode: row.leetcode,
    resume: row.resume,
    portfolio: row.portfolio,
    email: row.email,
    phone: row.phone,
    status: row.status,
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

export interface RegisterInput {
  /** Who registers: null when nobody is signed in. */
  viewer: User | null;
  profile: RegistrationInput;
}

/**
 * A registration (decision 6): only a PIN on the roster. A student signed in with that PIN is
 * approved at once and replaces a stranger's pending profile on it; staff registrations are
 * approved; anyone else's waits for faculty. A PIN with a profile already gets 409.
 */
export async function register(db: Executor, { viewer, profile: input }: RegisterInput): Promise<Profile> {
  if (!(await isOnRoster(db, input.pin))) throw badRequest(NOT_ON_ROSTER_MESSAGE);
  const ownPin = isStudent(viewer) && viewer?.pin === input.pin;
  if (isStudent(viewer) && !ownPin) throw forbidden(OWN_PIN_ONLY_MESSAGE);
  const status: ProfileStatus = ownPin || isStaff(viewer) ? 'approved' : 'pending';
  // The image work happens before the transaction, so that it holds no lock while sharp runs.
  const photo = input.photo ? await reencodePhoto(input.photo) : null;
  const row = await mapDuplicatePin(
    db.transaction(async (tx) => {
      if (ownPin) {
        const existing = await repo.findProfileByPin(tx, input.pin);
        // A stranger's pending profile never blocks the real student.
        if (existing?.status === 'pending') await repo.deleteProfile(tx, existing.id);
      }
      await bumpDataVersion(tx);
      const created = await repo.insertProfile(tx, {
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
        status,
      });
      return photo ? ((await repo.setPhoto(tx, created.id, photo)) ?? created) : created;
    }),
  );
  return toProfileResponse(row);
}

/** Staff see the approved profiles, or the pending ones to review; a student only their own approved one. */
export async function listVisibleProfiles(
  db: Executor,
  viewer: User,
  status: 'pending' | 'approved' | 'all' = 'approved',
): Promise<Profile[]> {
  if (!isStaff(viewer)) {
    const own = viewer.pin ? await repo.findProfileByPin(db, viewer.pin, 'approved') : undefined;
    return own ? [toProfileResponse(own)] : [];
  }
  return (await repo.listProfiles(db, status === 'all' ? undefined : status)).map(toProfileResponse);
}

/** The approved profile on a PIN, for a caller that has already checked who may see it. */
export async function findProfile(db: Executor, pin: string): Promise<Profile | null> {
  const row = await repo.findProfileByPin(db, pin, 'approved');
  return row ? toProfileResponse(row) : null;
}

export async function getProfileByPin(db: Executor, viewer: User, pin: string): Promise<Profile> {
  if (!canSeeStudent(viewer, pin)) throw forbidden(OWN_RECORD_ONLY_MESSAGE);
  const profile = await findProfile(db, pin);
  if (!profile) throw notFound(PROFILE_NOT_FOUND_MESSAGE);
  return profile;
}

/** The profile with this id, if the viewer may change it: staff any, a student their own PIN's. */
async function findEditable(db: Executor, viewer: User, id: string): Promise<ProfileRow> {
  const row = isUuid(id) ? await repo.findProfileById(db, id) : undefined;
  if (!row) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
  if (!canEditProfile(viewer, row.pin)) throw forbidden(OWN_RECORD_ONLY_MESSAGE);
  return row;
}

export async function updateProfileById(db: Executor, viewer: User, id: string, update: ProfileUpdate): Promise<Profile> {
  await findEditable(db, viewer, id);
  if (update.pin !== undefined) {
    if (!isStaff(viewer) && update.pin !== viewer.pin) throw forbidden(OWN_PIN_ONLY_MESSAGE);
    if (!(await isOnRoster(db, update.pin))) throw badRequest(NOT_ON_ROSTER_MESSAGE);
  }
  const { photo: photoUpload, ...fields } = update;
  // Only the fields that were sent change: undefined means "not sent", null means "clear".
  const changes = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as ProfileChanges;
  const photo: StoredPhoto | null | undefined = photoUpload == null ? photoUpload : await reencodePhoto(photoUpload);
  const row = await mapDuplicatePin(
    db.transaction(async (tx) => {
      let updated = await repo.updateProfile(tx, id, changes);
      if (updated && photo !== undefined) updated = await repo.setPhoto(tx, id, photo);
      const changed = [...Object.keys(changes), ...(photo !== undefined ? ['photo'] : [])].sort();
      if (updated) await recordAudit(tx, actorOf(viewer), 'profile.edit', updated.pin, { fields: changed });
      await bumpDataVersion(tx);
      return updated;
    }),
  );
  if (!row) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
  return toProfileResponse(row);
}

/** Removes a profile; for a pending one, that is how faculty reject it. */
export async function deleteProfileById(db: Executor, viewer: User, id: string): Promise<void> {
  const profile = await findEditable(db, viewer, id);
  await db.transaction(async (tx) => {
    if (!(await repo.deleteProfile(tx, id))) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
    // Deleting a pending profile is how faculty reject it: the entry says which it was.
    await recordAudit(tx, actorOf(viewer), 'profile.delete', profile.pin, { status: profile.status });
    await bumpDataVersion(tx);
  });
}

export async function approveProfileById(db: Executor, viewer: User, id: string): Promise<Profile> {
  if (!isUuid(id)) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
  const row = await db.transaction(async (tx) => {
    const approved = await repo.updateProfile(tx, id, { status: 'approved' });
    if (approved) await recordAudit(tx, actorOf(viewer), 'profile.approve', approved.pin);
    await bumpDataVersion(tx);
    return approved;
  });
  if (!row) throw notFound(PROFILE_ID_NOT_FOUND_MESSAGE);
  return toProfileResponse(row);
}

/** Sends the profiles on these PINs back to faculty review (after `portal pins fix` merged them). */
export function sendBackForReview(db: Executor, pins: string[]): Promise<void> {
  return repo.setStatusOfPins(db, pins, 'pending');
}

export const PHOTO_NOT_FOUND_MESSAGE = 'This profile has no photo';

/**
 * A profile's uploaded photo, to whoever may see the profile: staff any, a student their own
 * approved one (a pending profile's picture is for faculty only, decision 6). Anyone else, and a
 * profile without a photo, gets 404, so that the answer does not say which profiles exist.
 */
export async function getPhoto(db: Executor, viewer: User, id: string): Promise<StoredPhoto> {
  const profile = isUuid(id) ? await repo.findProfileById(db, id) : undefined;
  const visible = profile && canSeeStudent(viewer, profile.pin) && (profile.status === 'approved' || isStaff(viewer));
  const photo = visible && profile.photoVersion ? await repo.findPhoto(db, id) : undefined;
  if (!profile?.photoVersion || !photo) throw notFound(PHOTO_NOT_FOUND_MESSAGE);
  return { contentType: photo.contentType, data: photo.data, version: profile.photoVersion };
}
