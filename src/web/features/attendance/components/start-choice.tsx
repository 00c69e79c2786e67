import { Trans, useLingui } from '@lingui/react/macro';
import { SegmentedControl, Text, useMatches } from '@mantine/core';
import { START_PATTERNS, type StartPattern } from '../register-storage';

/**
 * How a register not taken yet starts (decision 16): the specification's everyone absent, or the
 * user's choice, remembered in this browser for them.
 */
export function StartChoice({ value, onChange, disabled }: { value: StartPattern; onChange: (value: StartPattern) => void; disabled: boolean }) {
  // The three choices side by side do not fit a phone: one under another there.
  const { i18n } = useLingui();
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });
  return (
    <div>
      <Text size="sm" fw={500} mb={4} id="register-start-label">
        <Trans>New registers start with</Trans>
      </Text>
      <SegmentedControl
        aria-labelledby="register-start-label"
        data={START_PATTERNS.map((pattern) => ({ value: pattern.value, label: i18n._(pattern.label) }))}
        value={value}
        onChange={(next) => onChange(next as StartPattern)}
        disabled={disabled}
        size="sm"
        orientation={orientation}
      />
    </div>
  );
}
