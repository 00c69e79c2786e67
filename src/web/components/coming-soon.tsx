import { Alert, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen whose feature is not built yet: its title and a short note. */
export function ComingSoon({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      {subtitle && <Text c="dimmed">{subtitle}</Text>}
      <Alert color="gray" title="Coming soon">
        This part of the portal is being built and will appear here shortly.
      </Alert>
    </Stack>
  );
}
