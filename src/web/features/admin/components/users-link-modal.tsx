import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import { SET_PASSWORD_LINK_HOURS } from '../../../../shared/schemas/admin-users';

export interface ShownLink {
  email: string;
  url: string;
  /** A new account, or a reset of an existing one's password. */
  kind: 'new' | 'reset';
  /** The link is also on its way by e-mail. */
  emailed: boolean;
}

/**
 * The set-password link, shown once: the server keeps only its hash, so closing this is the last
 * chance to copy it (a new one can be made with Reset password).
 */
export function UsersLinkModal({ link, onClose }: { link: ShownLink | null; onClose: () => void }) {
  return (
    <Modal
      opened={link !== null}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={link?.kind === 'new' ? 'Account added' : 'New set-password link'}
      size="lg"
    >
      {link && (
        <Stack gap="md">
          <Text>
            {link.emailed ? 'This link is on its way to ' : 'Send this link to '}
            <strong>{link.email}</strong>
            {link.emailed ? ' by e-mail' : ''}. It lets them choose their password
            {link.kind === 'reset' ? '; any earlier link no longer works' : ''}.
          </Text>
          {link.emailed && (
            <Text size="sm" c="dimmed">
              The Set-password e-mail column of the accounts list says when the mail server has taken it, or why not yet.
            </Text>
          )}
          <TextInput label="Set-password link" value={link.url} readOnly onFocus={(event) => event.currentTarget.select()} />
          <Alert color="blue" icon={<IconInfoCircle size={18} aria-hidden />}>
            The link works once, for {SET_PASSWORD_LINK_HOURS} hours. It is shown only now: copy it before you close this
            window.
          </Alert>
          <Group justify="flex-end">
            <CopyButton value={link.url} timeout={2000}>
              {({ copied, copy }) => (
                <Button
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
