/** Query keys of this feature: every list of profiles sits under `profilesKey`. */
export const profilesKey = ['profiles'] as const;

/** One profile's address; the API keeps the specification's name for profiles, registrations. */
export function profilePath(id: string): string {
  return `/api/registrations/${encodeURIComponent(id)}`;
}
