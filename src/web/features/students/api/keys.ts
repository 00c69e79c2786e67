/** Query keys of this feature: every list of profiles sits under `profilesKey`. */
export const profilesKey = ['registrations'] as const;
