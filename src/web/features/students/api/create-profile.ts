import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type Profile, type RegistrationInput } from '../../../../shared/schemas/profiles';
import { api } from '../../../lib/api-client';
import { profilesKey } from './query-keys';

/** POST /api/registrations (public): 201 with the profile; 400, 409 and 429 carry a message. */
export async function createProfile(input: RegistrationInput): Promise<Profile> {
  return api.post('/api/registrations', input, ProfileSchema);
}

export function useCreateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profilesKey }),
  });
}
