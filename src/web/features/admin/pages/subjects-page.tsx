import { Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBook } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { CreateSubjectSchema, SubjectNameSchema, type Subject } from '../../../../shared/schemas/subjects';
import { DataTable } from '../../../components/data-table';
import { EmptyState, QueryState } from '../../../components/load-states';
import { FormActions, failureText, useFormFailure, bindValue } from '../../../components/forms';
import { useSubjects } from '../../../lib/subjects';
import { useCreateSubject, useRenameSubject } from '../api/subjects';

/** Adds a subject: a code that never changes, and a name. */
function AddSubjectForm() {
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ code?: string | undefined; name?: string | undefined }>({});
  const failure = useFormFailure();
  const create = useCreateSubject();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    const parsed = CreateSubjectSchema.safeParse({ code, name });
    if (!parsed.success) {
      const first = (field: string) => parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
      setErrors({ code: first('code'), name: first('name') });
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (saved) => {
        notifications.show({ color: 'green', message: `${saved.code} ${saved.name} has been added.` });
        setCode('');
        setName('');
      },
      onError: (error) => failure.fail(error, 'Error adding the subject. Please try again.'),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add a subject">
      <Stack gap="xs">
        {failure.alert}
        <Group align="flex-start" gap="sm">
          <TextInput
            label="Code"
            placeholder="e.g. DS"
            {...bindValue(code, setCode)}
            error={errors.code}
            required
            maxLength={20}
            w={140}
          />
          <TextInput
            label="Name"
            placeholder="e.g. Data Structures"
            {...bindValue(name, setName)}
            error={errors.name}
            required
            maxLength={120}
            style={{ flex: '1 1 220px' }}
          />
          <Button type="submit" loading={create.isPending} mt={24}>
            Add subject
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RenameSubjectModal({ subject, onClose }: { subject: Subject | null; onClose: () => void }) {
  return (
    <Modal opened={subject !== null} onClose={onClose} title={subject ? `Rename ${subject.code}` : ''}>
      {subject && <RenameForm key={subject.code} subject={subject} onDone={onClose} />}
    </Modal>
  );
}

function RenameForm({ subject, onDone }: { subject: Subject; onDone: () => void }) {
  const [name, setName] = useState(subject.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useRenameSubject();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = SubjectNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'A subject needs a name');
      return;
    }
    rename.mutate(
      { code: subject.code, name: parsed.data },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'green', message: `${saved.code} is now ${saved.name}.` });
          onDone();
        },
        onError: (failure) => setError(failureText(failure, 'Error saving the subject. Please try again.')),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Rename ${subject.code}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The code {subject.code} stays: registers already taken keep it.
        </Text>
        <TextInput label="Name" {...bindValue(name, setName)} error={error} required data-autofocus />
        <FormActions submitLabel="Save name" onCancel={onDone} saving={rename.isPending} />
      </Stack>
    </form>
  );
}

/** /admin/subjects: the subjects lectures are taken for; add and rename them. */
export function SubjectsPage() {
  const subjects = useSubjects();
  const [renaming, setRenaming] = useState<Subject | null>(null);

  let body;
  if (!subjects.isSuccess) {
    body = <QueryState query={subjects} loading="Loading the subjects" failed="Error loading the subjects" />;
  } else if (subjects.data.length === 0) {
    body = (
      <EmptyState icon={<IconBook size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title="No subjects yet.">
        Add the subjects, then give each class its weekly timetable from the Classes page.
      </EmptyState>
    );
  } else {
    body = (
      <DataTable
        columns={[
          { header: 'Code', cellProps: { ff: 'monospace' }, cell: (subject) => subject.code },
          { header: 'Name', cell: (subject) => subject.name },
          {
            header: 'Actions',
            hiddenHeader: true,
            cellProps: { ta: 'right' },
            cell: (subject) => (
              <Button size="xs" variant="default" aria-label={`Rename ${subject.code}`} onClick={() => setRenaming(subject)}>
                Rename
              </Button>
            ),
          },
        ]}
        rows={subjects.data}
        rowKey={(subject) => subject.code}
        label="Subjects"
        minWidth={320}
        tableProps={{ striped: true }}
      />
    );
  }

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>Subjects</Title>
        <Text c="dimmed" size="sm">
          Lectures are taken per subject; a class without a timetable keeps one register a day.
        </Text>
      </Stack>
      <AddSubjectForm />
      {body}
      <RenameSubjectModal subject={renaming} onClose={() => setRenaming(null)} />
    </Stack>
  );
}

export default SubjectsPage;
