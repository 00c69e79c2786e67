import { Stack, Text, Title } from '@mantine/core';
import { RegistrationForm } from '../components/registration-form';

/** /register (public): a student posts their profile and links. */
export function RegisterPage() {
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Student Registration</Title>
        <Text c="dimmed">Share your profile and links with faculty. Fields marked * are required.</Text>
      </Stack>
      <RegistrationForm />
    </Stack>
  );
}

export default RegisterPage;
