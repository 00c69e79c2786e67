import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Profile } from '../../../../shared/schemas/profiles';
import { useFormFailure } from '../../../components/forms';
import { useUpdateProfile } from '../api/update-profile';
import { ProfileFields } from './profile-fields';
import { markServerErrors, profileToValues, useProfileForm } from './profile-form';

/**
 * Staff change any profile, a student their own, with the registration form's fields and rules;
 * `own` (a student's own profile) keeps the PIN as it is, as the server does.
 */
export function EditProfileModal({ profile, own = false, onClose }: { profile: Profile | null; own?: boolean; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal opened={profile !== null} onClose={onClose} title={own ? t`Edit my profile` : t`Edit profile`} size="lg">
      {/* Keyed by id: opening another profile starts from that profile's values. */}
      {profile && <EditProfileForm key={profile.id} profile={profile} own={own} onDone={onClose} />}
    </Modal>
  );
}

function EditProfileForm({ profile, own, onDone }: { profile: Profile; own: boolean; onDone: () => void }) {
  const { t } = useLingui();
  const form = useProfileForm(profileToValues(profile));
  const update = useUpdateProfile();
  const failure = useFormFailure();
  const {
    handleSubmit,
    formState: { isValid, isDirty },
  } = form;
  const saving = update.isPending;

  const submit = handleSubmit((values) => {
    failure.clear();
    update.mutate(
      { id: profile.id, changes: values },
      {
        onSuccess: (saved) => {
          const { name } = saved;
          notifications.show({ color: 'green', message: own ? t`Your profile has been saved.` : t`The profile of ${name} has been saved.` });
          onDone();
        },
        onError: (error) => {
          markServerErrors(form, error);
          failure.fail(error, t`Error saving the profile. Please try again.`);
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate aria-label={own ? t`Edit my profile` : t`Edit profile`}>
      <Stack gap="md">
        {failure.alert}
        <ProfileFields form={form} idPrefix={`edit-${profile.id}`} pinReadOnly={own} currentPhotoUrl={profile.photoUrl} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={saving}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            type="submit"
            disabled={!isValid || !isDirty || saving}
            leftSection={saving ? <Loader size={16} color="gray" aria-hidden /> : undefined}
          >
            {saving ? t`Saving...` : t`Save changes`}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
