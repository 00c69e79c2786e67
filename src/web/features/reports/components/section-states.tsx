import { Alert, Button, Center, Group, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A report section's table on its way: a small spinner that says what it loads. */
export function SectionLoading({ label }: { label: string }) {
  return (
    <Center py="lg" role="status">
      <Loader size="sm" role="status" aria-label={label} />
    </Center>
  );
}

/** A report section that could not load: the message and Retry. */
export function SectionError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
      <Group justify="space-between">
        <span>{message}</span>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
