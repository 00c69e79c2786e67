import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBook } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { CreateSubjectSchema, SubjectNameSchema, type Subject } from '../../../../shared/schemas/subjects';
import { DataTable } from '../../../components/data-table';
import { EmptyState, QueryState } from '../../../components/load-states';
import { FormActions, failureText, useFormFailure, bindValue } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { useSubjects } from '../../../lib/subjects';
import { useCreateSubject, useRenameSubject } from '../api/subjects';

/** Adds a subject: a code that never changes, and a name. */
function AddSubjectForm() {
  const { t } = useLingui();
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
      const first = (field: string) => serverText(parsed.error.issues.find((issue) => issue.path[0] === field)?.message);
      setErrors({ code: first('code'), name: first('name') });
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (saved) => {
        const { code: savedCode, name: savedName } = saved;
        notifications.show({ color: 'green', message: t`${savedCode} ${savedName} has been added.` });
        setCode('');
        setName('');
      },
      onError: (error) => failure.fail(error, t`Error adding the subject. Please try again.`),
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Add a subject`}>
      <Stack gap="xs">
        {failure.alert}
        <Group align="flex-start" gap="sm">
          <TextInput
            label={t`Code`}
            placeholder={t`e.g. DS`}
            {...bindValue(code, setCode)}
            error={errors.code}
            required
            maxLength={20}
            w={140}
          />
          <TextInput
            label={t`Name`}
            placeholder={t`e.g. Data Structures`}
            {...bindValue(name, setName)}
            error={errors.name}
            required
            maxLength={120}
            style={{ flex: '1 1 220px' }}
          />
          <Button type="submit" loading={create.isPending} mt={24}>
            <Trans>Add subject</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RenameSubjectModal({ subject, onClose }: { subject: Subject | null; onClose: () => void }) {
  const { t } = useLingui();
  const code = subject?.code ?? '';
  return (
    <Modal opened={subject !== null} onClose={onClose} title={subject ? t`Rename ${code}` : ''}>
      {subject && <RenameForm key={subject.code} subject={subject} onDone={onClose} />}
    </Modal>
  );
}

function RenameForm({ subject, onDone }: { subject: Subject; onDone: () => void }) {
  const { t } = useLingui();
  const code = subject.code;
  const [name, setName] = useState(subject.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useRenameSubject();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = SubjectNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(serverText(parsed.error.issues[0]?.message) ?? t`A subject needs a name`);
      return;
    }
    rename.mutate(
      { code: subject.code, name: parsed.data },
      {
        onSuccess: (saved) => {
          const newName = saved.name;
          notifications.show({ color: 'green', message: t`${code} is now ${newName}.` });
          onDone();
        },
        onError: (failure) => setError(failureText(failure, t`Error saving the subject. Please try again.`)),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t`Rename ${code}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <Trans>The code {code} stays: registers already taken keep it.</Trans>
        </Text>
        <TextInput label={t`Name`} {...bindValue(name, setName)} error={error} required data-autofocus />
        <FormActions submitLabel={t`Save name`} onCancel={onDone} saving={rename.isPending} />
      </Stack>
    </form>
  );
}

/** /admin/subjects: the subjects lectures are taken for; add and rename them. */
export function SubjectsPage() {
  const { t } = useLingui();
  const subjects = useSubjects();
  const [renaming, setRenaming] = useState<Subject | null>(null);

  let body;
  if (!subjects.isSuccess) {
    body = <QueryState query={subjects} loading={t`Loading the subjects`} failed={t`Error loading the subjects`} />;
  } else if (subjects.data.length === 0) {
    body = (
      <EmptyState icon={<IconBook size={32} aria-hidden color="var(--mantine-color-gray-6)" />} title={t`No subjects yet.`}>
        <Trans>Add the subjects, then give each class its weekly timetable from the Classes page.</Trans>
      </EmptyState>
    );
  } else {
    body = (
      <DataTable
        columns={[
          { header: t`Code`, cellProps: { ff: 'monospace' }, cell: (subject) => subject.code },
          { header: t`Name`, cell: (subject) => subject.name },
          {
            header: t`Actions`,
            hiddenHeader: true,
            cellProps: { ta: 'right' },
            cell: (subject) => {
              const code = subject.code;
              return (
                <Button size="xs" variant="default" aria-label={t`Rename ${code}`} onClick={() => setRenaming(subject)}>
                  <Trans>Rename</Trans>
                </Button>
              );
            },
          },
        ]}
        rows={subjects.data}
        rowKey={(subject) => subject.code}
        label={t`Subjects`}
        minWidth={320}
        tableProps={{ striped: true }}
      />
    );
  }

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>
          <Trans>Subjects</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>Lectures are taken per subject; a class without a timetable keeps one register a day.</Trans>
        </Text>
      </Stack>
      <AddSubjectForm />
      {body}
      <RenameSubjectModal subject={renaming} onClose={() => setRenaming(null)} />
    </Stack>
  );
}

export default SubjectsPage;
