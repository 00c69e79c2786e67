import { Alert, Button, Grid, Loader, Paper, Stack } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useCreateProfile } from '../api/create-profile';
import { ProfileFields } from './profile-fields';
import { EMPTY_PROFILE, markServerErrors, useProfileForm } from './profile-form';
import { ProfilePreview } from './profile-preview';

export const REGISTRATION_SUCCESS_MESSAGE = 'Registration Successful! Your profile has been saved.';
export const REGISTRATION_ERROR_MESSAGE = 'Error registering user. Please try again.';

/** What to tell the user when a registration fails (SPEC section 8). */
function failureMessage(error: Error): string {
  // A 5xx says only that something failed; the specification's own wording says it better.
  if (error instanceof ApiError && error.status >= 500) return REGISTRATION_ERROR_MESSAGE;
  return error.message || REGISTRATION_ERROR_MESSAGE;
}

/** The registration form with its live preview: cleared on success, kept as typed on error. */
export function RegistrationForm() {
  const form = useProfileForm();
  const create = useCreateProfile();
  const [success, setSuccess] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    handleSubmit,
    formState: { isValid },
  } = form;
  const saving = create.isPending;
  const topRef = useRef<HTMLDivElement>(null);
  // The alerts sit above the form; on a phone the Register button is a long way below them.
  const showAlerts = () => requestAnimationFrame(() => topRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));

  const submit = handleSubmit((values) => {
    setSuccess(false);
    setFailure(null);
    create.mutate(values, {
      onSuccess: () => {
        form.reset(EMPTY_PROFILE);
        setSuccess(true);
        showAlerts();
      },
      onError: (error) => {
        markServerErrors(form, error);
        setFailure(failureMessage(error));
        showAlerts();
      },
    });
  });

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <form onSubmit={submit} noValidate aria-label="Student registration">
            <Stack gap="md" ref={topRef} style={{ scrollMarginTop: 80 }}>
              {success && (
                <Alert
                  color="green"
                  icon={<IconCircleCheck size={18} aria-hidden />}
                  role="status"
                  withCloseButton
                  closeButtonLabel="Dismiss"
                  onClose={() => setSuccess(false)}
                >
                  {REGISTRATION_SUCCESS_MESSAGE}
                </Alert>
              )}
              {failure && (
                <Alert
                  color="red"
                  icon={<IconAlertCircle size={18} aria-hidden />}
                  role="alert"
                  withCloseButton
                  closeButtonLabel="Dismiss"
                  onClose={() => setFailure(null)}
                >
                  {failure}
                </Alert>
              )}
              <ProfileFields form={form} idPrefix="register" />
              <Button
                type="submit"
                fullWidth
                disabled={!isValid || saving}
                leftSection={saving ? <Loader size={16} color="gray" aria-hidden /> : undefined}
              >
                {saving ? 'Registering...' : 'Register'}
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
