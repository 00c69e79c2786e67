import { Badge, Button, Card, Group, Modal, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { MARK_STATUSES, type MarkStatus } from '../../../../shared/attendance-rules';
import { MAX_CORRECTION_TEXT, type Correction } from '../../../../shared/schemas/corrections';
import { FormFailure, bindValue } from '../../../components/forms';
import { LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { formatDate, formatDateTime } from '../../../lib/calendar-date';
import { useCorrections } from '../../../lib/corrections';
import { useAcceptCorrection, useDeclineCorrection } from '../api/corrections';

const STATUS_WORD: Record<MarkStatus, string> = { present: 'Present', absent: 'Absent', late: 'Late', excused: 'Excused' };

function where(c: Correction): string {
  return `${c.className}, ${formatDate(c.date)}${c.period > 0 ? `, period ${c.period}${c.subject ? ` (${c.subject})` : ''}` : ''}`;
}

function OpenRequest({ request }: { request: Correction }) {
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
    <Card withBorder radius="md" padding="md" component="li" aria-label={`Request from ${who}`}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{who}</Text>
          <Text size="sm" c="dimmed">
            Asked {formatDateTime(request.createdAt, undefined)}
          </Text>
        </Group>
        <Text size="sm">
          {where(request)}: marked <strong>{STATUS_WORD[request.markStatus]}</strong>
        </Text>
        <Text size="sm">Reason: {request.reason}</Text>
        {(accept.error ?? decline.error) && (
          <FormFailure>{(accept.error ?? decline.error)?.message}</FormFailure>
        )}
        <Group gap="sm" align="flex-end">
          <Select
            label="Change the mark to"
            data={MARK_STATUSES.map((value) => ({ value, label: STATUS_WORD[value] }))}
            value={status}
            onChange={(value) => value && setStatus(value as MarkStatus)}
            allowDeselect={false}
            w={170}
          />
          <Button onClick={() => accept.mutate({ id: request.id, status })} loading={accept.isPending}>
            Accept
          </Button>
          <Button variant="default" onClick={() => setDeclining(true)}>
            Decline
          </Button>
        </Group>
      </Stack>
      <Modal opened={declining} onClose={() => setDeclining(false)} title={`Decline the request from ${who}`} centered>
        <form onSubmit={submitDecline} noValidate>
          <Stack gap="sm">
            <Textarea
              label="Reply"
              description="The student sees it with the request. The mark stays as it is."
              {...bindValue(reply, setReply)}
              maxLength={MAX_CORRECTION_TEXT}
              autosize
              minRows={2}
              required
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setDeclining(false)}>
                Cancel
              </Button>
              <Button type="submit" color="red.9" loading={decline.isPending} disabled={reply.trim() === ''}>
                Decline
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
  const open = useCorrections('open');
  const closed = useCorrections('closed');
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Correction requests</Title>
        <Text c="dimmed">Students ask to correct a mark; accepting changes it, with their reason in the register&apos;s change history.</Text>
      </div>
      <section aria-labelledby="open-requests-heading">
        <Title order={2} fz="h3" mb="sm" id="open-requests-heading">
          Waiting
        </Title>
        {open.isPending ? (
          <PageLoader label="Loading requests" />
        ) : open.isError ? (
          <LoadError message={open.error.message} onRetry={() => void open.refetch()} />
        ) : open.data.length === 0 ? (
          <Text c="dimmed">No request is waiting.</Text>
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
          Decided
        </Title>
        {(closed.data ?? []).length === 0 ? (
          <Text c="dimmed">None yet.</Text>
        ) : (
          <Stack gap="xs">
            {(closed.data ?? []).map((c) => (
              <Text size="sm" key={c.id}>
                <Badge color={c.state === 'accepted' ? 'teal.9' : 'red.9'} tt="none" mr="xs">
                  {c.state === 'accepted' ? 'Accepted' : 'Declined'}
                </Badge>
                {c.name} ({c.pin}), {where(c)}: {c.reason}
                {c.reply ? `. Reply: ${c.reply}` : ''}
                {c.decidedBy ? `. By ${c.decidedBy}` : ''}
              </Text>
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

export default CorrectionsPage;
