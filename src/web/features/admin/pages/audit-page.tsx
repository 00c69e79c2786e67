import { Text } from '@mantine/core';

/** Being built: the audit trail page. */
export function AuditPage() {
  return <Text c="dimmed">Choose a section above.</Text>;
}

export default AuditPage;
