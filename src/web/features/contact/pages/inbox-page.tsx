import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { FormFailure } from '../../../components/forms';
import { EmptyState, QueryState } from '../../../components/load-states';
import { useInbox } from '../api/get-inbox';
import { useSetMessageRead } from '../api/set-message-read';
import { InboxMessage } from '../components/inbox-message';

/** /inbox (faculty): the messages sent through the contact form, newest first. */
export function InboxPage() {
  const { t } = useLingui();
  const inbox = useInbox();
  const setRead = useSetMessageRead();
  const unread = inbox.data?.filter((m) => !m.read).length ?? 0;

  let body;
  if (!inbox.isSuccess) {
    body = <QueryState query={inbox} loading={t`Loading messages`} failed={t`Error loading messages`} />;
  } else if (inbox.data.length === 0) {
    body = (
      <EmptyState icon={<IconInbox size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title={t`No messages yet.`}>
        <Trans>Messages sent through the Contact Us page appear here.</Trans>
      </EmptyState>
    );
  } else {
    const why = setRead.error?.message;
    body = (
      <Stack gap="sm">
        {setRead.isError && (
          <FormFailure onDismiss={() => setRead.reset()}>
            <Trans>The message could not be updated: {why}</Trans>
          </FormFailure>
        )}
        {inbox.data.map((message) => (
          <InboxMessage
            key={message.id}
            message={message}
            toggling={setRead.isPending && setRead.variables?.id === message.id}
            onToggleRead={(read) => setRead.mutate({ id: message.id, read })}
          />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={1}>
            <Trans>Inbox</Trans>
          </Title>
          {unread > 0 && (
            <Badge color="blue.8">
              <Trans>{unread} unread</Trans>
            </Badge>
          )}
        </Group>
        <Text c="dimmed">
          <Trans>Messages sent through the contact form, newest first.</Trans>
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

export default InboxPage;
