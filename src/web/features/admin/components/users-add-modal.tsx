import { useLingui } from '@lingui/react/macro';
import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '../../../../shared/constants';
import { CreateUserSchema, type CreatedUser } from '../../../../shared/schemas/admin-users';
import { FormActions, useFormFailure, bindValue } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { useCreateUser } from '../api/users-create';
import { ROLE_LABELS } from './users-table';

interface FieldErrors {
  email?: string | undefined;
  name?: string | undefined;
  pin?: string | undefined;
}

/** "Add account": e-mail, name, role, and the roster PIN for a student. */
export function UsersAddModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (created: CreatedUser) => void }) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} closeButtonProps={{ 'aria-label': t`Close` }} title={t`Add account`}>
      {opened && <AddForm onCancel={onClose} onCreated={onCreated} />}
    </Modal>
  );
}

function AddForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (created: CreatedUser) => void }) {
  const { t, i18n } = useLingui();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('faculty');
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const failure = useFormFailure();
  const create = useCreateUser();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    const input = { email, name, role, ...(role === 'student' ? { pin } : {}) };
    const parsed = CreateUserSchema.safeParse(input);
    const found: FieldErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        found[field] ??= serverText(issue.message);
      }
    }
    if (role === 'student' && !pin.trim()) found.pin = t`Please enter the student's roster PIN`;
    setErrors(found);
    if (!parsed.success || Object.values(found).some(Boolean)) return;
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        const addedEmail = created.user.email;
        notifications.show({ color: 'green', closeButtonProps: { 'aria-label': t`Dismiss` }, message: t`Account ${addedEmail} added.` });
        onCreated(created);
      },
      onError: (error) => failure.fail(error, t`Error adding the account. Please try again.`),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Add account`}>
      <Stack gap="md">
        {failure.alert}
        <TextInput
          label={t`E-mail`}
          type="email"
          autoComplete="off"
          {...bindValue(email, setEmail)}
          error={errors.email}
          required
          data-autofocus
        />
        <TextInput label={t`Name`} {...bindValue(name, setName)} error={errors.name} required maxLength={200} />
        <Select
          label={t`Role`}
          data={ROLES.map((value) => ({ value, label: i18n._(ROLE_LABELS[value]) }))}
          value={role}
          onChange={(value) => value && setRole(value as Role)}
          allowDeselect={false}
          required
          description={role === 'admin' ? t`Admins sign in on the Faculty tab and can change every account.` : undefined}
        />
        {role === 'student' && (
          <TextInput
            label={t`PIN`}
            description={t`The student's PIN on the roster`}
            {...bindValue(pin, setPin)}
            error={errors.pin}
            required
            maxLength={32}
          />
        )}
        <FormActions submitLabel={t`Add account`} onCancel={onCancel} saving={create.isPending} />
      </Stack>
    </form>
  );
}
