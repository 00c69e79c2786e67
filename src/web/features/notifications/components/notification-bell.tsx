import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Anchor, Box, Button, Divider, Group, Indicator, Loader, Popover, ScrollArea, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Notification } from '../../../../shared/schemas/alerts';
import { failureText } from '../../../components/forms';
import { formatDateTime } from '../../../lib/calendar-date';
import { useMarkNotificationsRead, useNotificationEvents, useNotifications } from '../api/notifications';

/**
 * The header's bell, for every signed-in account: how many notices are unread, and a popover with
 * the newest (unread ones marked), each opening its link and so read, and "Mark all as read". A
 * notice arriving on the live stream refreshes it.
 */
export function NotificationBell() {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  const notices = useNotifications(true);
  useNotificationEvents();
  const markRead = useMarkNotificationsRead();
  const headingId = useId();
  const unread = notices.data?.unread ?? 0;
  // The bell's accessible name: the count is in it, the badge beside the icon is only drawn.
  const bellLabel = unread > 0 ? t`Notifications, ${unread} unread` : t`Notifications`;

  const toggle = () => {
    // Opening shows the newest, even where the stream is not there to say one arrived.
    if (!opened) void notices.refetch();
    setOpened(!opened);
  };
  const openNotice = (notice: Notification) => {
    if (!notice.read) markRead.mutate({ ids: [notice.id] });
    setOpened(false);
  };

  let body;
  if (notices.isPending) {
    body = (
      <Group justify="center" p="md">
        <Loader size="sm" aria-label={t`Loading notifications`} />
      </Group>
    );
  } else if (notices.isError) {
    body = (
      <Stack gap="xs" p="md" align="flex-start">
        <Text size="sm" role="alert">
          {failureText(notices.error, t`Error loading the notifications.`)}
        </Text>
        <Button size="xs" variant="default" onClick={() => void notices.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </Stack>
    );
  } else if (notices.data.items.length === 0) {
    body = (
      <Text size="sm" p="md">
        <Trans>No notifications yet</Trans>
      </Text>
    );
  } else {
    body = (
      <ScrollArea.Autosize mah="min(420px, 70vh)" type="auto">
        <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={headingId}>
          {notices.data.items.map((notice, index) => (
            <Box component="li" key={notice.id} px="md" py="sm" style={index > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}>
              <NoticeItem notice={notice} onOpen={() => openNotice(notice)} />
            </Box>
          ))}
        </Box>
      </ScrollArea.Autosize>
    );
  }

  return (
    // The header is fixed: the bell never scrolls out of sight, so the popover need not hide with it.
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" trapFocus returnFocus hideDetached={false}>
      <Indicator label={<span aria-hidden>{unread > 99 ? '99+' : unread}</span>} size={18} color="red.9" offset={4} disabled={unread === 0}>
        <Popover.Target>
          <ActionIcon variant="default" size="lg" aria-label={bellLabel} title={t`Notifications`} onClick={toggle}>
            <IconBell size={18} aria-hidden />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} aria-labelledby={headingId} style={{ maxWidth: 'calc(100vw - 16px)' }}>
        <Group justify="space-between" wrap="nowrap" px="md" py="xs">
          <Text id={headingId} fw={700}>
            <Trans>Notifications</Trans>
          </Text>
          {/* Disabled but still focusable (and without a spinner, which disables): the focus stays in the popover once all are read. */}
          <Button
            size="compact-sm"
            variant="subtle"
            data-disabled={unread === 0 || undefined}
            aria-disabled={unread === 0}
            onClick={() => unread > 0 && !markRead.isPending && markRead.mutate({ all: true })}
          >
            <Trans>Mark all as read</Trans>
          </Button>
        </Group>
        {markRead.isError && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert" px="md" pb="xs">
            {failureText(markRead.error, t`Error marking the notifications as read. Please try again.`)}
          </Text>
        )}
        <Divider />
        {body}
      </Popover.Dropdown>
    </Popover>
  );
}

function NoticeItem({ notice, onOpen }: { notice: Notification; onOpen: () => void }) {
  const { t } = useLingui();
  const title = (
    <>
      {!notice.read && <VisuallyHidden>{t`Unread:`} </VisuallyHidden>}
      {notice.title}
    </>
  );
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      {/* Unread ones have a dot (and say so to screen readers) and a bold title. */}
      <Box
        aria-hidden
        mt={8}
        style={{ flexShrink: 0, width: 8, height: 8, borderRadius: '50%', background: notice.read ? 'transparent' : 'var(--mantine-color-blue-filled)' }}
      />
      <Stack gap={4} style={{ minWidth: 0 }}>
        {notice.link ? (
          <Anchor component={Link} to={notice.link} size="sm" fw={notice.read ? 500 : 700} onClick={onOpen}>
            {title}
          </Anchor>
        ) : (
          <Text size="sm" fw={notice.read ? 500 : 700}>
            {title}
          </Text>
        )}
        <Text size="sm">{notice.body}</Text>
        <Text size="xs" c="dimmed" component="time" dateTime={notice.createdAt}>
          {formatDateTime(notice.createdAt, undefined)}
        </Text>
      </Stack>
    </Group>
  );
}
