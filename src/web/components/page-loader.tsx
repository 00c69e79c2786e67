import { useLingui } from '@lingui/react/macro';
import { Center, Loader, Stack, Text } from '@mantine/core';

/**
 * A spinner while a page or section loads. `showLabel` writes the label under it: where the wait
 * can be long (the app's code arriving on a slow phone), words say what is happening.
 */
export function PageLoader({ label: given, showLabel = false }: { label?: string; showLabel?: boolean }) {
  const { t } = useLingui();
  const label = given ?? t`Loading…`;
  if (showLabel) {
    return (
      <Center py="xl" mih={200} role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader aria-hidden />
          <Text size="sm" c="dimmed">
            {label}
          </Text>
        </Stack>
      </Center>
    );
  }
  return (
    // The status carries the name: a spinner's own element (a span) may not be named.
    <Center py="xl" mih={200} role="status" aria-live="polite" aria-label={label}>
      <Loader aria-hidden />
    </Center>
  );
}
