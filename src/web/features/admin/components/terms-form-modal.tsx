import { useLingui } from '@lingui/react/macro';
import { Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { DateField } from '../../../components/date-field';
import { TERM_DATES_MESSAGE, TermNameSchema, type TermListItem } from '../../../../shared/schemas/terms';
import { FormActions, useFormFailure, bindValue } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { useCreateTerm } from '../api/terms-create';
import { useUpdateTerm } from '../api/terms-update';

/**
 * Adds a term (`term` is 'new') or changes one: its name and two dates. The server's refusal
 * (an overlap with another term, a name taken) is shown in its own words at the top.
 */
export function TermFormModal({ term, onClose }: { term: TermListItem | 'new' | null; onClose: () => void }) {
  const { t } = useLingui();
  const termName = term !== null && term !== 'new' ? term.name : '';
  const title = term === 'new' ? t`Add a term` : term ? t`Edit ${termName}` : '';
  return (
    <Modal opened={term !== null} onClose={onClose} title={title}>
      {/* Keyed: opening another term starts from its own values. */}
      {term !== null && <TermForm key={term === 'new' ? 'new' : term.id} term={term === 'new' ? null : term} onDone={onClose} />}
    </Modal>
  );
}

interface FieldErrors {
  name?: string | undefined;
  startsOn?: string | undefined;
  endsOn?: string | undefined;
}

function TermForm({ term, onDone }: { term: TermListItem | null; onDone: () => void }) {
  const { t } = useLingui();
  const [name, setName] = useState(term?.name ?? '');
  const [startsOn, setStartsOn] = useState<string | null>(term?.startsOn ?? null);
  const [endsOn, setEndsOn] = useState<string | null>(term?.endsOn ?? null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const failure = useFormFailure();
  const create = useCreateTerm();
  const update = useUpdateTerm();
  const saving = create.isPending || update.isPending;
  const termName = term?.name ?? '';

  const check = (): FieldErrors => {
    const found: FieldErrors = {};
    const parsedName = TermNameSchema.safeParse(name);
    if (!parsedName.success) found.name = serverText(parsedName.error.issues[0]?.message);
    if (!startsOn) found.startsOn = t`Please pick the first day of the term`;
    if (!endsOn) found.endsOn = t`Please pick the last day of the term`;
    if (startsOn && endsOn && startsOn > endsOn) found.endsOn = serverText(TERM_DATES_MESSAGE);
    return found;
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    const found = check();
    setErrors(found);
    if (Object.values(found).some(Boolean) || !startsOn || !endsOn) return;
    const values = { name: name.trim(), startsOn, endsOn };
    const onError = (error: Error) => failure.fail(error, t`Error saving the term. Please try again.`);
    if (term === null) {
      create.mutate(values, {
        onSuccess: (saved) => {
          const savedName = saved.name;
          notifications.show({ color: 'green', message: t`${savedName} has been added.` });
          onDone();
        },
        onError,
      });
    } else {
      update.mutate(
        { id: term.id, changes: values },
        {
          onSuccess: (saved) => {
            const savedName = saved.name;
            notifications.show({ color: 'green', message: t`${savedName} has been saved.` });
            onDone();
          },
          onError,
        },
      );
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={term ? t`Edit ${termName}` : t`Add a term`}>
      <Stack gap="md">
        {failure.alert}
        <TextInput
          label={t`Name`}
          placeholder={t`e.g. Autumn 2026`}
          {...bindValue(name, setName)}
          error={errors.name}
          required
          data-autofocus
          maxLength={100}
        />
        <DateField label={t`First day`} value={startsOn} onChange={setStartsOn} error={errors.startsOn} required />
        <DateField
          label={t`Last day`}
          value={endsOn}
          onChange={setEndsOn}
          minDate={startsOn ?? undefined}
          defaultDate={startsOn ?? undefined}
          error={errors.endsOn}
          required
        />
        <FormActions submitLabel={term ? t`Save changes` : t`Add term`} onCancel={onDone} saving={saving} />
      </Stack>
    </form>
  );
}
