import { Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '../../../../shared/constants';
import { AccountNameSchema, type AdminUser } from '../../../../shared/schemas/admin-users';
import { FormActions, useFormFailure, bindValue } from '../../../components/forms';
import { useUpdateUser } from '../api/users-update';
import { ROLE_LABELS } from './users-table';

export interface EditTarget {
  user: AdminUser;
  field: 'name' | 'role';
}

/** Edits an account's name, or changes its role (which signs it out everywhere else). */
export function UsersEditModal({ target, onClose }: { target: EditTarget | null; onClose: () => void }) {
  const title = target ? `${target.field === 'name' ? 'Edit the name of' : 'Change the role of'} ${target.user.email}` : '';
  return (
    <Modal opened={target !== null} onClose={onClose} closeButtonProps={{ 'aria-label': 'Close' }} title={title}>
      {target && <EditForm key={`${target.user.id}-${target.field}`} target={target} onDone={onClose} />}
    </Modal>
  );
}

function EditForm({ target, onDone }: { target: EditTarget; onDone: () => void }) {
  const { user, field } = target;
  const [name, setName] = useState(user.name);
  const [role, setRole] = useState<Role>(user.role);
  const [nameError, setNameError] = useState<string | undefined>();
  const failure = useFormFailure();
  const update = useUpdateUser();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    let changes;
    if (field === 'name') {
      const parsed = AccountNameSchema.safeParse(name);
      setNameError(parsed.success ? undefined : parsed.error.issues[0]?.message);
      if (!parsed.success) return;
      changes = { name: parsed.data };
    } else {
      changes = { role };
    }
    update.mutate(
      { id: user.id, changes },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'green',
            closeButtonProps: { 'aria-label': 'Dismiss' },
            message: field === 'name' ? `${saved.email} is now named ${saved.name}.` : `${saved.email} is now ${ROLE_LABELS[saved.role].toLowerCase()}.`,
          });
          onDone();
        },
        onError: (error) => failure.fail(error, 'Error saving the account. Please try again.'),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={field === 'name' ? 'Edit name' : 'Change role'}>
      <Stack gap="md">
        {failure.alert}
        {field === 'name' ? (
          <TextInput label="Name" {...bindValue(name, setName)} error={nameError} required maxLength={200} data-autofocus />
        ) : (
          <>
            <Select
              label="Role"
              data={ROLES.map((value) => ({ value, label: ROLE_LABELS[value], disabled: value === 'student' && !user.pin }))}
              value={role}
              onChange={(value) => value && setRole(value as Role)}
              allowDeselect={false}
              required
              data-autofocus
            />
            <Text size="sm" c="dimmed">
              A new role signs the account out on every other device. Only an account with a roster PIN can be a student;
              a student made staff keeps their PIN.
            </Text>
          </>
        )}
        <FormActions
          submitLabel={field === 'name' ? 'Save name' : 'Change role'}
          onCancel={onDone}
          saving={update.isPending}
          disabled={field === 'role' && role === user.role}
        />
      </Stack>
    </form>
  );
}
