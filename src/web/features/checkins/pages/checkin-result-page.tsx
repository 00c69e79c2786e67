import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Stack, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { serverText } from '../../../i18n/server-text';
import { outcomeInWords } from '../../../lib/checkin-scan';

/** /checkin-result: a scan's outcome in words, the mark or the refusal's message. */
export function CheckinResultPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const error = params.get('error');
  const status = params.get('status');
  const className = params.get('class');
  const period = Number(params.get('period') ?? '0');

  let outcome;
  if (error !== null || !status || !className) {
    // The refusal, as the server or this page's scan said it (the server's words, in the language shown).
    const reason = error !== null ? serverText(error) : t`There is no check-in to show.`;
    outcome = (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={20} aria-hidden />} role="alert">
        <Trans>
          <strong>You are not checked in.</strong> {reason}
        </Trans>
      </Alert>
    );
  } else {
    outcome = (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
        {outcomeInWords({ status, class: className, period: Number.isInteger(period) ? period : 0, markKept: params.get('kept') === 'true' })}
      </Alert>
    );
  }

  return (
    <Stack gap="md" maw={560}>
      <Title order={1}>
        <Trans>Check-in</Trans>
      </Title>
      {outcome}
      <Button component={Link} to="/faculty" variant="light" w="fit-content">
        <Trans>Go to my attendance</Trans>
      </Button>
    </Stack>
  );
}

export default CheckinResultPage;
