import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import type { AdminClass } from '../../../../shared/schemas/classes';
import { FormActions } from '../../../components/forms';
import { useUpdateClass } from '../api/classes-update';
import { useClassNameField } from '../hooks/use-class-name-field';

/**
 * Renames a class. A rename is a correction: the new name replaces the old one
 * everywhere, so the dialog says so before anyone presses Rename.
 */
export function ClassesRenameModal({ target, onClose }: { target: AdminClass | null; onClose: () => void }) {
  const { t } = useLingui();
  const className = target?.name ?? '';
  return (
    <Modal opened={target !== null} onClose={onClose} title={target ? t`Rename ${className}` : t`Rename class`} closeButtonProps={{ 'aria-label': t`Close` }}>
      {/* Keyed by the class so that the field starts from its name each time the dialog opens. */}
      {target && <RenameForm key={target.name} target={target} onClose={onClose} />}
    </Modal>
  );
}

function RenameForm({ target, onClose }: { target: AdminClass; onClose: () => void }) {
  const { t } = useLingui();
  const className = target.name;
  const update = useUpdateClass();
  const field = useClassNameField(target.name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = field.check();
    if (name === null) return;
    if (name === target.name) {
      onClose();
      return;
    }
    update.mutate(
      { name: target.name, changes: { name } },
      {
        onSuccess: (renamed) => {
          const newName = renamed.name;
          notifications.show({ color: 'green', message: t`Class ${className} is now ${newName}, in every register and report.` });
          onClose();
        },
        onError: (err) => field.fail(err.message),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Alert color="blue" icon={<IconInfoCircle size={18} aria-hidden />} title={t`A rename is a correction`}>
          <Trans>
            The new name replaces {className} everywhere: on the dashboard, in the roster, and in every past register, report
            and student record. To start a new class instead, add one.
          </Trans>
        </Alert>
        <TextInput
          label={t`New name`}
          {...field.props}
          data-autofocus
        />
        <FormActions submitLabel={t`Rename`} onCancel={onClose} saving={update.isPending} />
      </Stack>
    </form>
  );
}
