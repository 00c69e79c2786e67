import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProfileSchema, type Profile, type RegistrationInput } from '../../../../shared/schemas/profiles';
import { studentRecordsKey } from '../../../components/student-record';
import { api } from '../../../lib/api-client';
import { profilesKey } from './query-keys';

/**
 * POST /api/registrations (public): 201 with the profile, `pending` when the registrant is not
 * signed in as that student or as staff; 400 (not on the roster), 403 (a student
 * registering another PIN), 409 and 429 carry a message.
 */
export async function createProfile(input: RegistrationInput): Promise<Profile> {
  return api.post('/api/registrations', input, ProfileSchema);
}

export function useCreateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProfile,
    onSuccess: async () => {
      // A student's own registration shows at once, on /welcome and on their record.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profilesKey }),
        queryClient.invalidateQueries({ queryKey: studentRecordsKey }),
      ]);
    },
  });
}
