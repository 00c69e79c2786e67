import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Card, Group, Modal, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { MARK_STATUSES, type MarkStatus } from '../../../../shared/attendance-rules';
import { MAX_CORRECTION_TEXT, type Correction } from '../../../../shared/schemas/corrections';
import { FormFailure, bindValue } from '../../../components/forms';
import { LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { STATUS_WORD } from '../../../components/student-record';
import { formatDate, formatDateTime } from '../../../lib/calendar-date';
import { useCorrections } from '../../../lib/corrections';
import { useAcceptCorrection, useDeclineCorrection } from '../api/corrections';

/** Which mark a request is about: the class and date, with the period and subject of a lecture. */
function useWhere(): (request: Correction) => string {
  const { t } = useLingui();
  return ({ className, date: isoDate, period, subject }) => {
    const date = formatDate(isoDate);
    if (period === 0) return t`${className}, ${date}`;
    return subject ? t`${className}, ${date}, period ${period} (${subject})` : t`${className}, ${date}, period ${period}`;
  };
}

function OpenRequest({ request }: { request: Correction }) {
  const { t, i18n } = useLingui();
  const where = useWhere();
  const place = where(request);
  const asked = formatDateTime(request.createdAt, undefined);
  const marked = i18n._(STATUS_WORD[request.markStatus]);
  const reason = request.reason;
  const [status, setStatus] = useState<MarkStatus>(request.markStatus === 'present' ? 'absent' : 'present');
  const [declining, setDeclining] = useState(false);
  const [reply, setReply] = useState('');
  const accept = useAcceptCorrection();
  const decline = useDeclineCorrection();
  const who = `${request.name} (${request.pin})`;
  const submitDecline = (event: FormEvent) => {
    event.preventDefault();
    decline.mutate({ id: request.id, reply }, { onSuccess: () => setDeclining(false) });
  };
  return (
    <Card withBorder radius="md" padding="md" component="li" aria-label={t`Request from ${who}`}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{who}</Text>
          <Text size="sm" c="dimmed">
            <Trans>Asked {asked}</Trans>
          </Text>
        </Group>
        <Text size="sm">
          <Trans>
            {place}: marked <strong>{marked}</strong>
          </Trans>
        </Text>
        <Text size="sm">
          <Trans>Reason: {reason}</Trans>
        </Text>
        {(accept.error ?? decline.error) && (
          <FormFailure>{(accept.error ?? decline.error)?.message}</FormFailure>
        )}
        <Group gap="sm" align="flex-end">
          <Select
            label={t`Change the mark to`}
            data={MARK_STATUSES.map((value) => ({ value, label: i18n._(STATUS_WORD[value]) }))}
            value={status}
            onChange={(value) => value && setStatus(value as MarkStatus)}
            allowDeselect={false}
            w={170}
          />
          <Button onClick={() => accept.mutate({ id: request.id, status })} loading={accept.isPending}>
            <Trans>Accept</Trans>
          </Button>
          <Button variant="default" onClick={() => setDeclining(true)}>
            <Trans>Decline</Trans>
          </Button>
        </Group>
      </Stack>
      <Modal opened={declining} onClose={() => setDeclining(false)} title={t`Decline the request from ${who}`} centered>
        <form onSubmit={submitDecline} noValidate>
          <Stack gap="sm">
            <Textarea
              label={t`Reply`}
              description={t`The student sees it with the request. The mark stays as it is.`}
              {...bindValue(reply, setReply)}
              maxLength={MAX_CORRECTION_TEXT}
              autosize
              minRows={2}
              required
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setDeclining(false)}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" color="red.9" loading={decline.isPending} disabled={reply.trim() === ''}>
                <Trans>Decline</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}

/** /corrections: students' requests to correct a mark, for faculty to accept or decline. */
export function CorrectionsPage() {
  const { t } = useLingui();
  const open = useCorrections('open');
  const closed = useCorrections('closed');
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>
          <Trans>Correction requests</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Students ask to correct a mark; accepting changes it, with their reason in the register&apos;s change history.</Trans>
        </Text>
      </div>
      <section aria-labelledby="open-requests-heading">
        <Title order={2} fz="h3" mb="sm" id="open-requests-heading">
          <Trans>Waiting</Trans>
        </Title>
        {open.isPending ? (
          <PageLoader label={t`Loading requests`} />
        ) : open.isError ? (
          <LoadError message={open.error.message} onRetry={() => void open.refetch()} />
        ) : open.data.length === 0 ? (
          <Text c="dimmed">
            <Trans>No request is waiting.</Trans>
          </Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {open.data.map((request) => (
              <OpenRequest key={request.id} request={request} />
            ))}
          </Stack>
        )}
      </section>
      <section aria-labelledby="closed-requests-heading">
        <Title order={2} fz="h3" mb="sm" id="closed-requests-heading">
          <Trans>Decided</Trans>
        </Title>
        {(closed.data ?? []).length === 0 ? (
          <Text c="dimmed">
            <Trans>None yet.</Trans>
          </Text>
        ) : (
          <Stack gap="xs">
            {(closed.data ?? []).map((c) => (
              <DecidedRequest key={c.id} request={c} />
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

/** A decided request: accepted or declined, with the reason, faculty's reply and who decided. */
function DecidedRequest({ request }: { request: Correction }) {
  const { t } = useLingui();
  const where = useWhere()(request);
  const { name, pin, reason, reply, decidedBy } = request;
  let line;
  if (reply && decidedBy) line = t`${name} (${pin}), ${where}: ${reason}. Reply: ${reply}. By ${decidedBy}`;
  else if (reply) line = t`${name} (${pin}), ${where}: ${reason}. Reply: ${reply}`;
  else if (decidedBy) line = t`${name} (${pin}), ${where}: ${reason}. By ${decidedBy}`;
  else line = t`${name} (${pin}), ${where}: ${reason}`;
  return (
    <Text size="sm">
      <Badge color={request.state === 'accepted' ? 'teal.9' : 'red.9'} tt="none" mr="xs">
        {request.state === 'accepted' ? t`Accepted` : t`Declined`}
      </Badge>
      {line}
    </Text>
  );
}

export default CorrectionsPage;
