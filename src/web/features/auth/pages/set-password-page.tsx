import { Text } from '@mantine/core';

/** Being built: the set-password page lands with the accounts API. */
export function SetPasswordPage() {
  return <Text c="dimmed">This page is not ready yet.</Text>;
}

export default SetPasswordPage;
