import { useLingui } from '@lingui/react/macro';
import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminUser } from '../../../../shared/schemas/admin-users';
import { FormActions, FormFailure } from '../../../components/forms';
import { useResetUserPassword } from '../api/users-reset-password';
import { useResetUserTotp } from '../api/users-reset-totp';
import { useUpdateUser } from '../api/users-update';

export interface ConfirmTarget {
  user: AdminUser;
  action: 'toggle' | 'reset' | 'reset-totp';
}

/**
 * Asks before disabling (the account is signed out at once), enabling, or making a new
 * set-password link (the previous link stops working). A new link goes to `onLink`.
 */
export function UsersConfirmModal({
  target,
  onClose,
  onLink,
}: {
  target: ConfirmTarget | null;
  onClose: () => void;
  onLink: (user: AdminUser, url: string, emailed: boolean) => void;
}) {
  const { t } = useLingui();
  const update = useUpdateUser();
  const reset = useResetUserPassword();
  const resetTotp = useResetUserTotp();
  const busy = update.isPending || reset.isPending || resetTotp.isPending;
  const error = update.error ?? reset.error ?? resetTotp.error;
  const close = () => {
    update.reset();
    reset.reset();
    resetTotp.reset();
    onClose();
  };

  let title = '';
  let text = '';
  let confirm = '';
  let danger = false;
  const email = target?.user.email ?? '';
  if (target?.action === 'reset-totp') {
    title = t`Reset two-step sign-in of ${email}`;
    text = t`Turn two-step sign-in off for ${email}? Their password alone signs them in until they set it up again. Do this only when you are sure who is asking: the audit trail records it.`;
    confirm = t`Reset two-step sign-in`;
    danger = true;
  } else if (target?.action === 'reset') {
    title = t`Reset the password of ${email}`;
    text = t`Make a new set-password link for ${email}? Any earlier link stops working. Their current password keeps working until they use the new link.`;
    confirm = t`Make a new link`;
  } else if (target?.user.disabled) {
    title = t`Enable ${email}`;
    text = t`Enable ${email}? They can sign in again.`;
    confirm = t`Enable account`;
  } else if (target) {
    title = t`Disable ${email}`;
    text = t`Disable ${email}? They are signed out at once, everywhere, and cannot sign in until the account is enabled again. Their records stay.`;
    confirm = t`Disable account`;
    danger = true;
  }

  const run = () => {
    if (!target) return;
    const { user } = target;
    if (target.action === 'reset-totp') {
      resetTotp.mutate(user.id, {
        onSuccess: () => {
          notifications.show({ color: 'green', closeButtonProps: { 'aria-label': t`Dismiss` }, message: t`Two-step sign-in of ${email} is off.` });
          close();
        },
      });
      return;
    }
    if (target.action === 'reset') {
      reset.mutate(user.id, {
        onSuccess: ({ setPasswordUrl, emailed }) => {
          close();
          onLink(user, setPasswordUrl, emailed);
        },
      });
      return;
    }
    update.mutate(
      { id: user.id, changes: { disabled: !user.disabled } },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'green',
            closeButtonProps: { 'aria-label': t`Dismiss` },
            message: saved.disabled ? t`${email} is disabled and signed out.` : t`${email} is enabled.`,
          });
          close();
        },
      },
    );
  };

  return (
    <Modal opened={target !== null} onClose={close} closeButtonProps={{ 'aria-label': t`Close` }} title={title}>
      {target && (
        <Stack gap="md">
          <Text>{text}</Text>
          {error && <FormFailure>{error.message}</FormFailure>}
          <FormActions submitLabel={confirm} onCancel={close} onConfirm={run} saving={busy} color={danger ? 'red' : undefined} />
        </Stack>
      )}
    </Modal>
  );
}
