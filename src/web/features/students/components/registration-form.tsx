import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Grid, Loader, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useEffect, useRef, useState } from 'react';
import { isStudent } from '../../../../shared/access';
import { PENDING_REVIEW_MESSAGE, type ProfileStatus } from '../../../../shared/schemas/profiles';
import { FormSaved, useFormFailure } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { ApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/session';
import { useCreateProfile } from '../api/create-profile';
import { ProfileFields } from './profile-fields';
import { EMPTY_PROFILE, markServerErrors, useProfileForm } from './profile-form';
import { ProfilePreview } from './profile-preview';


/**
 * The registration form with its live preview: cleared on success, kept as typed on error. A
 * signed-in student finds their own PIN filled in: their registration shows at once, anyone
 * else's waits for faculty, and the success message says so.
 */
export function RegistrationForm() {
  const { t } = useLingui();
  const form = useProfileForm();
  const create = useCreateProfile();
  const user = useMe().data;
  const ownPin = isStudent(user) ? user?.pin : undefined;
  // The status of the profile just saved: a pending one waits for faculty.
  const [saved, setSaved] = useState<ProfileStatus | null>(null);
  const failure = useFormFailure();
  const {
    handleSubmit,
    getFieldState,
    getValues,
    setValue,
    formState: { isValid },
  } = form;

  // The sign-in is known a moment after the page opens; fill the PIN unless the user has typed one.
  useEffect(() => {
    if (ownPin && !getValues('pin') && !getFieldState('pin').isDirty) setValue('pin', ownPin, { shouldValidate: true });
  }, [ownPin, getFieldState, getValues, setValue]);
  const saving = create.isPending;
  const topRef = useRef<HTMLDivElement>(null);
  // The alerts sit above the form; on a phone the Register button is a long way below them.
  const showAlerts = () => requestAnimationFrame(() => topRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));

  const submit = handleSubmit((values) => {
    setSaved(null);
    failure.clear();
    create.mutate(values, {
      onSuccess: (profile) => {
        form.reset(EMPTY_PROFILE);
        setSaved(profile.status);
        showAlerts();
      },
      onError: (error) => {
        markServerErrors(form, error);
        // A 5xx says only that something failed; the specification's own wording says it better.
        const failed = t`Error registering user. Please try again.`;
        failure.setFailure(error instanceof ApiError && error.status >= 500 ? failed : error.message || failed);
        showAlerts();
      },
    });
  });

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <form onSubmit={submit} noValidate aria-label={t`Student registration`}>
            <Stack gap="md" ref={topRef} style={{ scrollMarginTop: 80 }}>
              {saved && (
                <FormSaved onDismiss={() => setSaved(null)}>
                  <Text size="sm">
                    <Trans>Registration Successful! Your profile has been saved.</Trans>
                  </Text>
                  {saved === 'pending' && <Text size="sm">{serverText(PENDING_REVIEW_MESSAGE)}</Text>}
                </FormSaved>
              )}
              {failure.alert}
              <ProfileFields form={form} idPrefix="register" />
              <Text size="sm" c="dimmed">
                <Trans>
                  What you give here is shown to signed-in users of the portal. The{' '}
                  <Anchor component={Link} to="/privacy" inherit underline="always">
                    privacy notice
                  </Anchor>{' '}
                  says what is kept, who sees it and for how long; the{' '}
                  <Anchor component={Link} to="/accessibility" inherit underline="always">
                    accessibility statement
                  </Anchor>{' '}
                  how the portal can be used.
                </Trans>
              </Text>
              <Button
                type="submit"
                fullWidth
                disabled={!isValid || saving}
                leftSection={saving ? <Loader size={16} color="gray" aria-hidden /> : undefined}
              >
                {saving ? t`Registering...` : t`Register`}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <ProfilePreview form={form} />
      </Grid.Col>
    </Grid>
  );
}
