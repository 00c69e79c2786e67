import { Center, Loader } from '@mantine/core';

export function PageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    // The status carries the name: a spinner's own element (a span) may not be named.
    <Center py="xl" mih={200} role="status" aria-live="polite" aria-label={label}>
      <Loader aria-hidden />
    </Center>
  );
}
