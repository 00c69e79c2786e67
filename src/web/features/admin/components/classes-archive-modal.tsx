import { Trans, useLingui } from '@lingui/react/macro';
import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminClass } from '../../../../shared/schemas/classes';
import { FormActions, FormFailure } from '../../../components/forms';
import { useUpdateClass } from '../api/classes-update';

/** Asks before a class is archived (it leaves the dashboard, its history stays) or restored. */
export function ClassesArchiveModal({ target, onClose }: { target: AdminClass | null; onClose: () => void }) {
  const { t } = useLingui();
  const update = useUpdateClass();
  const archiving = target ? !target.archived : true;
  const className = target?.name ?? '';
  const title = target ? (archiving ? t`Archive ${className}` : t`Restore ${className}`) : '';
  const close = () => {
    update.reset();
    onClose();
  };

  return (
    <Modal opened={target !== null} onClose={close} closeButtonProps={{ 'aria-label': t`Close` }} title={title}>
      {target && (
        <Stack gap="md">
          {archiving ? (
            <Text>
              <Trans>
                Archive {className}? It leaves the dashboard and takes no new registers or students. Its past registers, the
                students&apos; records, reports, CSV files and PDFs keep it. You can restore it at any time.
              </Trans>
            </Text>
          ) : (
            <Text>
              <Trans>Restore {className}? It comes back to the dashboard at its place in the order and can take registers again.</Trans>
            </Text>
          )}
          {update.error && <FormFailure>{update.error.message}</FormFailure>}
          <FormActions
            submitLabel={archiving ? t`Archive` : t`Restore`}
            onCancel={close}
            saving={update.isPending}
            color={archiving ? 'red.9' : undefined}
            onConfirm={() =>
              update.mutate(
                { name: target.name, changes: { archived: archiving } },
                {
                  onSuccess: () => {
                    notifications.show({
                      color: 'green',
                      message: archiving
                        ? t`Class ${className} archived. It has left the dashboard; its history is kept.`
                        : t`Class ${className} restored to the dashboard.`,
                    });
                    close();
                  },
                },
              )
            }
          />
        </Stack>
      )}
    </Modal>
  );
}
