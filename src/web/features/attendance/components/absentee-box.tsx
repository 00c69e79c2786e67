import { Button, Group, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { absenteeProblems, parseAbsentees } from '../absentees';
import type { RegisterDraft } from '../hooks/use-register-draft';

/**
 * `Absentees (PIN endings)`: the few students away, by the ends of their PINs; Apply marks exactly
 * those absent and everyone else present (late and excused stay). Refused, with the reasons,
 * when an ending fits no PIN or several.
 */
export function AbsenteeBox({ pins, draft, disabled }: { pins: string[]; draft: RegisterDraft; disabled: boolean }) {
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [applied, setApplied] = useState<string | null>(null);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const entry = parseAbsentees(text, pins);
    const found = absenteeProblems(entry);
    setProblems(found);
    if (found.length > 0) {
      setApplied(null);
      return;
    }
    draft.setAbsentees(entry.absent);
    setApplied(
      entry.absent.length === 0
        ? 'Everyone marked present.'
        : `${entry.absent.length} marked absent (${entry.absent.join(', ')}), everyone else present.`,
    );
  };
  return (
    <form onSubmit={apply} noValidate>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          label="Absentees (PIN endings)"
          description="Separated by spaces or commas. Apply marks them absent and everyone else present; late and excused stay."
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
          Apply
        </Button>
      </Group>
      <div aria-live="polite">
        {applied && (
          <Text size="sm" c="var(--portal-text-present)" mt={4}>
            {applied}
          </Text>
        )}
      </div>
    </form>
  );
}
