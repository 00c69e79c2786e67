import { Text } from '@mantine/core';

/** Being built: the setup checklist lands with the sections it checks. */
export function AdminHomePage() {
  return <Text c="dimmed">Choose a section above.</Text>;
}

export default AdminHomePage;
