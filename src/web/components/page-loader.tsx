import { Center, Loader } from '@mantine/core';

export function PageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" mih={200} role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
