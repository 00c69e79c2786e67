import { Alert, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ClassNameSchema, type AdminClass } from '../../../../shared/schemas/classes';
import { FormActions } from '../../../components/forms';
import { useUpdateClass } from '../api/classes-update';

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
  const [name, setName] = useState(target.name);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ClassNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the name');
      return;
    }
    if (parsed.data === target.name) {
      onClose();
      return;
    }
    setError(null);
    update.mutate(
      { name: target.name, changes: { name: parsed.data } },
      {
        onSuccess: (renamed) => {
          notifications.show({ color: 'green', message: `Class ${target.name} is now ${renamed.name}, in every register and report.` });
          onClose();
        },
        onError: (err) => setError(err.message),
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
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          maxLength={64}
          data-autofocus
        />
        <FormActions submitLabel="Rename" onCancel={onClose} saving={update.isPending} />
      </Stack>
    </form>
  );
}
