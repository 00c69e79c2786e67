import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Paper, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { checkIn, outcomeInWords } from '../../../lib/checkin-scan';

/** Six letters and digits, as the projector shows them. */
const CODE_LENGTH = 6;

/** "Check in with a code": the six characters on the projector, for a student who cannot scan the QR. */
export function CheckinCodeBox() {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const scan = useMutation({ mutationFn: (typed: string) => checkIn({ code: typed }) });
  const typed = code.trim().toUpperCase();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.length !== CODE_LENGTH) return;
    scan.mutate(typed);
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="checkin-code-title" maw={560}>
      <Title order={2} size="h4" id="checkin-code-title" mb="xs">
        <Trans>Check in with a code</Trans>
      </Title>
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t`Code on the screen`}
            description={t`Six characters`}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            maxLength={CODE_LENGTH + 4}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            ff="monospace"
            w={200}
          />
          <Button type="submit" loading={scan.isPending} disabled={typed.length !== CODE_LENGTH}>
            <Trans>Check in</Trans>
          </Button>
        </Group>
      </form>
      {scan.data && (
        <Alert mt="sm" color="teal" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
          {outcomeInWords(scan.data)}
        </Alert>
      )}
      {scan.error && (
        <Alert mt="sm" color="red" variant="light" icon={<IconAlertCircle size={20} aria-hidden />} role="alert">
          <strong>
            <Trans>You are not checked in.</Trans>
          </strong>{' '}
          {scan.error.message}
        </Alert>
      )}
    </Paper>
  );
}
