import { Alert, Button, Stack, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { outcomeInWords } from '../../../lib/checkin-scan';

/** /checkin-result: a scan's outcome in words, the mark or the refusal's message. */
export function CheckinResultPage() {
  const [params] = useSearchParams();
  const error = params.get('error');
  const status = params.get('status');
  const className = params.get('class');
  const period = Number(params.get('period') ?? '0');

  let outcome;
  if (error !== null || !status || !className) {
    outcome = (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={20} aria-hidden />} role="alert">
        <strong>You are not checked in.</strong> {error ?? 'There is no check-in to show.'}
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
      <Title order={1}>Check-in</Title>
      {outcome}
      <Button component={Link} to="/faculty" variant="light" w="fit-content">
        Go to my attendance
      </Button>
    </Stack>
  );
}

export default CheckinResultPage;
