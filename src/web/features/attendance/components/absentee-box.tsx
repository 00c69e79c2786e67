import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { absenteeProblems, parseAbsentees, type AbsenteeEntry } from '../absentees';
import type { RegisterDraft } from '../hooks/use-register-draft';

/**
 * `Absentees (PIN endings)`: the few students away, by the ends of their PINs; Apply marks exactly
 * those absent and everyone else present (late and excused stay). Refused, with the reasons,
 * when an ending fits no PIN or several.
 */
export function AbsenteeBox({ pins, draft, disabled }: { pins: string[]; draft: RegisterDraft; disabled: boolean }) {
  const { t, i18n } = useLingui();
  const [text, setText] = useState('');
  // What Apply found, kept as found so that its words follow the language shown.
  const [checked, setChecked] = useState<AbsenteeEntry | null>(null);
  const [applied, setApplied] = useState<readonly string[] | null>(null);
  const problems = checked ? absenteeProblems(checked, i18n) : [];
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const entry = parseAbsentees(text, pins);
    setChecked(entry);
    if (absenteeProblems(entry, i18n).length > 0) {
      setApplied(null);
      return;
    }
    draft.setAbsentees(entry.absent);
    setApplied(entry.absent);
  };
  const count = applied?.length ?? 0;
  const pinList = applied?.join(', ') ?? '';
  const appliedText = count === 0 ? t`Everyone marked present.` : t`${count} marked absent (${pinList}), everyone else present.`;
  return (
    <form onSubmit={apply} noValidate>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          label={t`Absentees (PIN endings)`}
          description={t`Separated by spaces or commas. Apply marks them absent and everyone else present; late and excused stay.`}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setApplied(null);
          }}
          error={problems.length > 0 ? problems.join(' ') : undefined}
          disabled={disabled}
          autoComplete="off"
          spellCheck={false}
          style={{ flex: 1 }}
          maw={560}
        />
        <Button type="submit" variant="light" disabled={disabled} mt={problems.length > 0 ? 0 : 'calc(var(--mantine-spacing-xl) + 1.5rem)'}>
          <Trans>Apply</Trans>
        </Button>
      </Group>
      <div aria-live="polite">
        {applied && (
          <Text size="sm" c="var(--portal-text-present)" mt={4}>
            {appliedText}
          </Text>
        )}
      </div>
    </form>
  );
}
