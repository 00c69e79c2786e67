import { Text } from '@mantine/core';

/** Being built: this section of the administration pages lands with its API. */
export function Page() {
  return <Text c="dimmed">This section is not ready yet.</Text>;
}

export default Page;
