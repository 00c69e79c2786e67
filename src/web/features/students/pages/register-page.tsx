import { Trans } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { RegistrationForm } from '../components/registration-form';

/** /register (public): a student posts their profile and links. */
export function RegisterPage() {
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Student Registration</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Share your profile and links with faculty. Fields marked * are required.</Trans>
        </Text>
      </Stack>
      <RegistrationForm />
    </Stack>
  );
}

export default RegisterPage;
