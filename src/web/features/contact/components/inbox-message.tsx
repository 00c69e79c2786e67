import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Button, Group, Paper, Spoiler, Stack, Text, Title } from '@mantine/core';
import type { ContactMessage } from '../../../../shared/schemas/contact';
import { formatDateTime } from '../../../lib/calendar-date';

/** When it came, in this device's zone (lib/calendar-date.ts). */
function when(iso: string): string {
  return formatDateTime(iso, undefined);
}

/** Whether the message reached the form-submission service, and why not when it did not. */
function Forwarding({ message }: { message: ContactMessage }) {
  const { t } = useLingui();
  const attempts = message.forwardAttempts;
  const forwardError = message.forwardError;
  const forwardedOn = message.forwardedAt ? when(message.forwardedAt) : null;
  // Filled and outlined badges in dark shades: the light ones are too faint to read at this size.
  switch (message.forwardStatus) {
    case 'forwarded':
      return (
        <Group gap="xs" wrap="wrap">
          <Badge color="teal.9">
            <Trans>Forwarded</Trans>
          </Badge>
          {forwardedOn && (
            <Text size="xs" c="dimmed">
              {t`on ${forwardedOn}`}
            </Text>
          )}
        </Group>
      );
    case 'failed':
      return (
        <Group gap="xs" wrap="wrap">
          <Badge color="red.9">
            <Trans>Forwarding failed</Trans>
          </Badge>
          <Text size="xs" c="dimmed">
            {t`${plural(attempts, {
              one: `${forwardError} (gave up after # try; the message is kept here)`,
              other: `${forwardError} (gave up after # tries; the message is kept here)`,
            })}`}
          </Text>
        </Group>
      );
    case 'pending':
      return message.forwardError ? (
        <Group gap="xs" wrap="wrap">
          <Badge color="var(--portal-text-danger)" variant="outline">
            <Trans>Forwarding pending</Trans>
          </Badge>
          <Text size="xs" c="dimmed">
            {t`${plural(attempts, {
              one: `Last try failed: ${forwardError} (# try so far; trying again)`,
              other: `Last try failed: ${forwardError} (# tries so far; trying again)`,
            })}`}
          </Text>
        </Group>
      ) : (
        <Badge color="var(--portal-text-muted)" variant="outline">
          <Trans>Forwarding pending</Trans>
        </Badge>
      );
    case 'off':
      return (
        <Group gap="xs" wrap="wrap">
          <Badge color="var(--portal-text-muted)" variant="outline">
            <Trans>Not forwarded</Trans>
          </Badge>
          <Text size="xs" c="dimmed">
            <Trans>No form service is set up; the message is kept here only.</Trans>
          </Text>
        </Group>
      );
  }
}

interface InboxMessageProps {
  message: ContactMessage;
  onToggleRead: (read: boolean) => void;
  toggling: boolean;
}

/** One message; an unread one stands out with a coloured edge, a tint and an Unread badge. */
export function InboxMessage({ message, onToggleRead, toggling }: InboxMessageProps) {
  const { t } = useLingui();
  const subject = message.subject;
  const unread = !message.read;
  const headingId = `contact-message-${message.id}`;
  return (
    <Paper
      component="article"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      p="md"
      style={
        unread
          ? { borderLeft: '4px solid var(--mantine-color-blue-8)', backgroundColor: 'var(--portal-surface-unread)' }
          : undefined
      }
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} miw={0} style={{ flex: '1 1 16rem' }}>
            <Group gap="xs" wrap="nowrap" align="center">
              {unread && (
                <Badge color="blue.8" size="sm" style={{ flexShrink: 0 }}>
                  <Trans>Unread</Trans>
                </Badge>
              )}
              <Title order={2} fz="md" fw={unread ? 700 : 500} id={headingId} style={{ overflowWrap: 'anywhere' }}>
                {message.subject}
              </Title>
            </Group>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {message.name} · <Anchor href={`mailto:${message.email}`}>{message.email}</Anchor>
              {message.phone && (
                <>
                  {' · '}
                  <Anchor href={`tel:${message.phone.replace(/[^+0-9]/g, '')}`}>{message.phone}</Anchor>
                </>
              )}
            </Text>
            <Text size="xs" c="dimmed">
              <time dateTime={message.createdAt}>{when(message.createdAt)}</time>
            </Text>
          </Stack>
          <Button
            variant="default"
            size="xs"
            loading={toggling}
            onClick={() => onToggleRead(unread)}
            aria-label={unread ? t`Mark as read: ${subject}` : t`Mark as unread: ${subject}`}
          >
            {unread ? t`Mark as read` : t`Mark as unread`}
          </Button>
        </Group>
        <Spoiler maxHeight={120} showLabel={t`Show more`} hideLabel={t`Show less`}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message.message}
          </Text>
        </Spoiler>
        <Forwarding message={message} />
      </Stack>
    </Paper>
  );
}
