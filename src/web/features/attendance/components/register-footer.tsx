import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import type { AttendanceStats } from '../../../../shared/schemas/attendance';
import { formatCount } from '../format';
import type { FlashMessage } from '../hooks/use-flash-message';
import classes from './register.module.css';

interface RegisterFooterProps {
  stats: AttendanceStats;
  dirty: boolean;
  submitting: boolean;
  message: FlashMessage | null;
  onSubmit: () => void;
}

function Stat({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <div className={classes.stat}>
      <Text size="xs" c="dimmed" lh={1.2}>
        {label}
      </Text>
      <Text fw={700} fz="lg" c={color} lh={1.3}>
        {formatCount(value)}
      </Text>
    </div>
  );
}

/** The sticky bar under the register: totals, Submit Attendance and the result of the last submit. */
export function RegisterFooter({ stats, dirty, submitting, message, onSubmit }: RegisterFooterProps) {
  const { t } = useLingui();
  return (
    <Box className={classes.footer}>
      <Stack gap={message ? 'xs' : 0}>
        {/* Always in the page, so that screen readers announce what appears in it. */}
        <div aria-live="polite">
          {message?.kind === 'success' && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden />} p="xs" role="status">
              {message.text}
            </Alert>
          )}
        </div>
        {message?.kind === 'error' && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} p="xs" role="alert">
            <Text size="sm" fw={600} inherit>
              {message.text}
            </Text>
            {message.detail && <Text size="sm">{message.detail}</Text>}
          </Alert>
        )}
        <Group justify="space-between" gap="sm" wrap="nowrap">
          <Group gap="md" style={{ rowGap: 4 }} role="group" aria-label={t`Totals`}>
            <Stat label={t`Total Students`} value={stats.total} />
            <Stat label={t`Present`} value={stats.present} color="var(--portal-text-present)" />
            <Stat label={t`Absent`} value={stats.absent} color="var(--portal-text-absent)" />
            {/* Shown once used, so that a register of present and absent reads as the specification's. */}
            {stats.late > 0 && <Stat label={t`Late`} value={stats.late} color="var(--portal-text-late)" />}
            {stats.excused > 0 && <Stat label={t`Excused`} value={stats.excused} color="var(--portal-text-excused)" />}
          </Group>
          <Group gap="sm" wrap="nowrap" justify="flex-end">
            {dirty && (
              <Text size="sm" c="var(--portal-text-late)" fw={500} visibleFrom="sm">
                <Trans>Unsaved changes</Trans>
              </Text>
            )}
            <Button size="md" onClick={onSubmit} loading={submitting} px="sm">
              <Trans>Submit Attendance</Trans>
            </Button>
          </Group>
        </Group>
      </Stack>
    </Box>
  );
}
