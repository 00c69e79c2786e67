import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const email = link?.email ?? '';
  const hours = SET_PASSWORD_LINK_HOURS;
  return (
    <Modal
      opened={link !== null}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t`Close` }}
      title={link?.kind === 'new' ? t`Account added` : t`New set-password link`}
      size="lg"
    >
      {link && (
        <Stack gap="md">
          <Text>
            {link.emailed ? (
              link.kind === 'reset' ? (
                <Trans>
                  This link is on its way to <strong>{email}</strong> by e-mail. It lets them choose their password; any earlier link no
                  longer works.
                </Trans>
              ) : (
                <Trans>
                  This link is on its way to <strong>{email}</strong> by e-mail. It lets them choose their password.
                </Trans>
              )
            ) : link.kind === 'reset' ? (
              <Trans>
                Send this link to <strong>{email}</strong>. It lets them choose their password; any earlier link no longer works.
              </Trans>
            ) : (
              <Trans>
                Send this link to <strong>{email}</strong>. It lets them choose their password.
              </Trans>
            )}
          </Text>
          {link.emailed && (
            <Text size="sm" c="dimmed">
              <Trans>The Set-password e-mail column of the accounts list says when the mail server has taken it, or why not yet.</Trans>
            </Text>
          )}
          <TextInput label={t`Set-password link`} value={link.url} readOnly onFocus={(event) => event.currentTarget.select()} />
          <Alert color="blue" icon={<IconInfoCircle size={18} aria-hidden />}>
            <Trans>
              The link works once, for {hours} hours. It is shown only now: copy it before you close this window.
            </Trans>
          </Alert>
          <Group justify="flex-end">
            <CopyButton value={link.url} timeout={2000}>
              {({ copied, copy }) => (
                <Button
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                  onClick={copy}
                >
                  {copied ? t`Copied` : t`Copy link`}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              <Trans>Done</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
