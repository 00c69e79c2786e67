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
  return (
    <Modal opened={target !== null} onClose={onClose} title={target ? `Rename ${target.name}` : 'Rename class'} closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* Keyed by the class so that the field starts from its name each time the dialog opens. */}
      {target && <RenameForm key={target.name} target={target} onClose={onClose} />}
    </Modal>
  );
}

function RenameForm({ target, onClose }: { target: AdminClass; onClose: () => void }) {
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
          notifications.show({ color: 'green', message: `Class ${target.name} is now ${renamed.name}, in every register and report.` });
          onClose();
        },
        onError: (err) => field.fail(err.message),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Alert color="blue" icon={<IconInfoCircle size={18} aria-hidden />} title="A rename is a correction">
          The new name replaces {target.name} everywhere: on the dashboard, in the roster, and in every past register,
          report and student record. To start a new class instead, add one.
        </Alert>
        <TextInput
          label="New name"
          {...field.props}
          data-autofocus
        />
        <FormActions submitLabel="Rename" onCancel={onClose} saving={update.isPending} />
      </Stack>
    </form>
  );
}
