import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { useCreateClass } from '../api/classes-create';
import { useClassNameField } from '../hooks/use-class-name-field';

/** "Add class": a name, added at the end of the order and on the dashboard at once. */
export function ClassesAddForm() {
  const { t } = useLingui();
  const create = useCreateClass();
  const field = useClassNameField('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = field.check();
    if (name === null) return;
    create.mutate(
      { name },
      {
        onSuccess: (created) => {
          field.setName('');
          const className = created.name;
          notifications.show({ color: 'green', message: t`Class ${className} added. It is on the dashboard now.` });
        },
        onError: (err) => field.fail(err.message),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Add class`}>
      {/* The button sits beside the field itself, with the hint and any error below both. */}
      <TextInput
        label={t`New class name`}
        description={t`Letters, digits, spaces and -, up to 32 characters`}
        placeholder={t`e.g. CSE9`}
        {...field.props}
        maw={480}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        inputContainer={(input) => (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
            <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending} style={{ flexShrink: 0 }}>
              <Trans>Add class</Trans>
            </Button>
          </Group>
        )}
      />
    </form>
  );
}
