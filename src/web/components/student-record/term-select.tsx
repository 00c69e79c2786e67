import { useLingui } from '@lingui/react/macro';
import { Select } from '@mantine/core';
import type { Term } from '../../../shared/schemas/terms';
import { ALL_TERMS, useTerms, type TermChoice } from '../../lib/terms';

/**
 * The term picker of the reports page and the student record: each term (newest first) and
 * 'All time'. Until the user picks one it shows the term the server chose, from the answer's
 * `term` (`shown`: undefined while there is no answer yet, null for all time).
 *
 * Props:
 * - `value`: the chosen term (an id or `all`), undefined for the server's default.
 * - `shown`: the `term` of the answer on screen.
 * - `onChange(term)`: a term's id or `all`.
 */
export function TermSelect({
  value,
  shown,
  onChange,
  width = 240,
}: {
  value: TermChoice;
  shown: Term | null | undefined;
  onChange: (term: string) => void;
  width?: number | string;
}) {
  const { t } = useLingui();
  const terms = useTerms();
  const options = (terms.data ?? []).map(({ id, name, current }) => ({ value: id, label: current ? t`${name} (current)` : name }));
  // The answer's term is an option even before (or without) the list.
  if (shown && !options.some((option) => option.value === shown.id)) options.unshift({ value: shown.id, label: shown.name });
  options.push({ value: ALL_TERMS, label: t`All time` });
  const selected = value ?? (shown === undefined ? null : (shown?.id ?? ALL_TERMS));

  return (
    <Select
      label={t`Term`}
      data={options}
      value={selected}
      onChange={(next) => {
        if (next) onChange(next);
      }}
      allowDeselect={false}
      placeholder={t`Default term`}
      w={width}
      maw="100%"
      size="sm"
      data-print-hide
    />
  );
}
