import { Center, Loader } from '@mantine/core';

/** A report section's table on its way: a small spinner that says what it loads. */
export function SectionLoading({ label }: { label: string }) {
  return (
    <Center py="lg" role="status">
      <Loader size="sm" role="status" aria-label={label} />
    </Center>
  );
}
