/** Query keys of this feature: every list of profiles sits under `profilesKey`. */
export const profilesKey = ['profiles'] as const;

/** Which profiles to list: the approved ones, or the pending ones that staff review. */
export type ProfileListStatus = 'approved' | 'pending';

/** One list of profiles: the approved ones, or (for staff) those waiting for review. */
export function profileListKey(status: ProfileListStatus) {
  return [...profilesKey, status] as const;
}

/** One profile's address; the API keeps the specification's name for profiles, registrations. */
export function profilePath(id: string): string {
  return `/api/registrations/${encodeURIComponent(id)}`;
}
