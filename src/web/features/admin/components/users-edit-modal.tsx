import { select } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '../../../../shared/constants';
import { AccountNameSchema, type AdminUser } from '../../../../shared/schemas/admin-users';
import { FormActions, useFormFailure, bindValue } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { useUpdateUser } from '../api/users-update';
import { ROLE_LABELS } from './users-table';

export interface EditTarget {
  user: AdminUser;
  field: 'name' | 'role';
}

/** Edits an account's name, or changes its role (which signs it out everywhere else). */
export function UsersEditModal({ target, onClose }: { target: EditTarget | null; onClose: () => void }) {
  const { t } = useLingui();
  const email = target?.user.email ?? '';
  const title = target ? (target.field === 'name' ? t`Edit the name of ${email}` : t`Change the role of ${email}`) : '';
  return (
    <Modal opened={target !== null} onClose={onClose} closeButtonProps={{ 'aria-label': t`Close` }} title={title}>
      {target && <EditForm key={`${target.user.id}-${target.field}`} target={target} onDone={onClose} />}
    </Modal>
  );
}

function EditForm({ target, onDone }: { target: EditTarget; onDone: () => void }) {
  const { t, i18n } = useLingui();
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
      setNameError(parsed.success ? undefined : serverText(parsed.error.issues[0]?.message));
      if (!parsed.success) return;
      changes = { name: parsed.data };
    } else {
      changes = { role };
    }
    update.mutate(
      { id: user.id, changes },
      {
        onSuccess: (saved) => {
          const { email, name: newName, role: newRole } = saved;
          notifications.show({
            color: 'green',
            closeButtonProps: { 'aria-label': t`Dismiss` },
            message:
              field === 'name'
                ? t`${email} is now named ${newName}.`
                : t`${select(newRole, { admin: `${email} is now admin.`, faculty: `${email} is now faculty.`, student: `${email} is now student.`, other: `${email} is now ${newRole}.` })}`,
          });
          onDone();
        },
        onError: (error) => failure.fail(error, t`Error saving the account. Please try again.`),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={field === 'name' ? t`Edit name` : t`Change role`}>
      <Stack gap="md">
        {failure.alert}
        {field === 'name' ? (
          <TextInput label={t`Name`} {...bindValue(name, setName)} error={nameError} required maxLength={200} data-autofocus />
        ) : (
          <>
            <Select
              label={t`Role`}
              data={ROLES.map((value) => ({ value, label: i18n._(ROLE_LABELS[value]), disabled: value === 'student' && !user.pin }))}
              value={role}
              onChange={(value) => value && setRole(value as Role)}
              allowDeselect={false}
              required
              data-autofocus
            />
            <Text size="sm" c="dimmed">
              <Trans>
                A new role signs the account out on every other device. Only an account with a roster PIN can be a student;
                a student made staff keeps their PIN.
              </Trans>
            </Text>
          </>
        )}
        <FormActions
          submitLabel={field === 'name' ? t`Save name` : t`Change role`}
          onCancel={onDone}
          saving={update.isPending}
          disabled={field === 'role' && role === user.role}
        />
      </Stack>
    </form>
  );
}
