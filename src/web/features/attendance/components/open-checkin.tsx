import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Checkbox, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DEFAULT_CHECKIN_MINUTES, MAX_CHECKIN_MINUTES } from '../../../../shared/schemas/checkins';
import { useOpenCheckin } from '../api/open-checkin';

/** The number a NumberInput holds, or null when it is empty. */
function wholeNumber(value: string | number): number | null {
  if (value === '' || value === null) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/**
 * "Open check-in" for today's register: students check themselves in from their phones while its
 * projector view (/checkin/:id) shows the code. A small form: for how long, late after how many
 * minutes, campus networks only.
 */
export function OpenCheckin({ className, period }: { className: string; period: number }) {
  const { t } = useLingui();
  const maxMinutes = MAX_CHECKIN_MINUTES;
  const [opened, setOpened] = useState(false);
  const [minutes, setMinutes] = useState<string | number>(DEFAULT_CHECKIN_MINUTES);
  const [lateAfter, setLateAfter] = useState<string | number>('');
  const [campusOnly, setCampusOnly] = useState(false);
  const [newTab, setNewTab] = useState(false);
  const open = useOpenCheckin();
  const navigate = useNavigate();

  const minutesValue = wholeNumber(minutes);
  const lateValue = wholeNumber(lateAfter);
  const minutesError = minutesValue === null || !Number.isInteger(minutesValue) || minutesValue < 1 || minutesValue > MAX_CHECKIN_MINUTES;
  const lateError = lateValue !== null && (!Number.isInteger(lateValue) || lateValue < 0 || lateValue > MAX_CHECKIN_MINUTES);

  const submit = () => {
    if (minutesError || lateError) return;
    // Opened now, while the click still counts: a window opened after the answer would be blocked.
    const projector = newTab ? window.open('about:blank', '_blank') : null;
    open.mutate(
      { className, period, minutes: minutesValue, ...(lateValue !== null ? { lateAfterMinutes: lateValue } : {}), campusOnly },
      {
        onSuccess: ({ id }) => {
          const address = `/checkin/${encodeURIComponent(id)}`;
          if (projector) {
            projector.location.href = address;
            setOpened(false);
          } else {
            void navigate(address);
          }
        },
        onError: () => projector?.close(),
      },
    );
  };

  return (
    <>
      <Button variant="light" leftSection={<IconQrcode size={18} aria-hidden />} onClick={() => setOpened(true)} w="fit-content">
        <Trans>Open check-in</Trans>
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t`Open a self check-in`}>
        <Stack gap="sm">
          <Text size="sm">
            <Trans>Students scan the code on the screen, or type its six letters, to check themselves in.</Trans>
          </Text>
          <NumberInput
            label={t`Open for (minutes)`}
            min={1}
            max={MAX_CHECKIN_MINUTES}
            allowDecimal={false}
            value={minutes}
            onChange={setMinutes}
            error={minutesError ? t`From 1 to ${maxMinutes} minutes` : undefined}
            data-autofocus
          />
          <NumberInput
            label={t`Late after (minutes, optional)`}
            description={t`Students who check in later are marked late.`}
            min={0}
            max={MAX_CHECKIN_MINUTES}
            allowDecimal={false}
            value={lateAfter}
            onChange={setLateAfter}
            error={lateError ? t`From 0 to ${maxMinutes} minutes` : undefined}
          />
          <Checkbox label={t`Campus networks only`} checked={campusOnly} onChange={(event) => setCampusOnly(event.currentTarget.checked)} />
          <Checkbox label={t`Show the code in a new tab`} checked={newTab} onChange={(event) => setNewTab(event.currentTarget.checked)} />
          {open.error && (
            <Alert color="red" role="alert">
              {open.error.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpened(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button onClick={submit} loading={open.isPending}>
              <Trans>Open</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
