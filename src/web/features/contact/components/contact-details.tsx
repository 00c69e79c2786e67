import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Paper, Skeleton, Stack, Text, ThemeIcon, Title, Group } from '@mantine/core';
import { IconMail, IconMapPin, IconPhone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useContactInfo } from '../api/get-contact-info';

function Block({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
          {icon}
        </ThemeIcon>
        <Stack gap={4} miw={0}>
          <Title order={2} fz="md">
            {title}
          </Title>
          {children}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The address, phone and e-mail blocks of the contact page, as the portal is configured. */
export function ContactDetails() {
  const { t } = useLingui();
  const info = useContactInfo();
  if (info.isError) {
    return (
      <Alert color="gray" title={t`Contact details`}>
        <Trans>Our address and phone number cannot be shown right now. You can still send us a message.</Trans>
      </Alert>
    );
  }
  const loading = (
    <Stack gap={8} aria-hidden>
      <Skeleton height={12} width="90%" />
      <Skeleton height={12} width="60%" />
    </Stack>
  );
  const data = info.data;
  return (
    <Stack gap="md" aria-busy={info.isPending}>
      <Block icon={<IconMapPin size={20} />} title={t`Address`}>
        {data ? (
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {data.address}
          </Text>
        ) : (
          loading
        )}
      </Block>
      <Block icon={<IconPhone size={20} />} title={t`Phone`}>
        {data ? (
          <Anchor size="sm" href={`tel:${data.phone.replace(/[^+0-9]/g, '')}`}>
            {data.phone}
          </Anchor>
        ) : (
          loading
        )}
      </Block>
      <Block icon={<IconMail size={20} />} title={t`Email`}>
        {data ? (
          <Anchor size="sm" href={`mailto:${data.email}`} style={{ overflowWrap: 'anywhere' }}>
            {data.email}
          </Anchor>
        ) : (
          loading
        )}
      </Block>
    </Stack>
  );
}
