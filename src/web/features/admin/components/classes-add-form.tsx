import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ClassNameSchema } from '../../../../shared/schemas/classes';
import { useCreateClass } from '../api/classes-create';

/** "Add class": a name, added at the end of the order and on the dashboard at once. */
export function ClassesAddForm() {
  const create = useCreateClass();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ClassNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the name');
      return;
    }
    setError(null);
    create.mutate(
      { name: parsed.data },
      {
        onSuccess: (created) => {
          setName('');
          notifications.show({ color: 'green', message: `Class ${created.name} added. It is on the dashboard now.` });
        },
        onError: (err) => setError(err.message),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add class">
      {/* The button sits beside the field itself, with the hint and any error below both. */}
      <TextInput
        label="New class name"
        description="Letters, digits, spaces and -, up to 32 characters"
        placeholder="e.g. CSE9"
        value={name}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setError(null);
        }}
        error={error}
        maxLength={64}
        maw={480}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        inputContainer={(input) => (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
            <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending} style={{ flexShrink: 0 }}>
              Add class
            </Button>
          </Group>
        )}
      />
    </form>
  );
}
