import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { bindValue } from '../forms';
import type { MarkStatus } from '../../../shared/attendance-rules';
import type { HistoryEntry } from '../../../shared/schemas/students';
import { CorrectionSchema, MAX_CORRECTION_TEXT, type Correction, type CreateCorrectionBody } from '../../../shared/schemas/corrections';
import { api } from '../../lib/api-client';
import { formatDate } from '../../lib/calendar-date';
import { correctionsKey, useCorrections } from '../../lib/corrections';
import { WordBadge } from './status-colors';

/*
 * A student's side of correction requests, on their own record: `Request a correction` on a mark,
 * and their requests with faculty's decisions. Faculty decide them on /corrections.
 */

const markKey = (date: string, period: number) => `${date}|${period}`;

/** A mark's status inside a sentence ("Your mark … is present."). */
const STATUS_IN_SENTENCE: Record<MarkStatus, MessageDescriptor> = {
  present: msg({ message: 'present', comment: 'A mark, inside the sentence "Your mark on {date} in {className} is {status}."' }),
  absent: msg({ message: 'absent', comment: 'A mark, inside the sentence "Your mark on {date} in {className} is {status}."' }),
  late: msg({ message: 'late', comment: 'A mark, inside the sentence "Your mark on {date} in {className} is {status}."' }),
  excused: msg({ message: 'excused', comment: 'A mark, inside the sentence "Your mark on {date} in {className} is {status}."' }),
};

/** The Correction column's cell: the request button, or what became of the request. */
export function useCorrectionCell() {
  const { t } = useLingui();
  const open = useCorrections('open');
  const [asking, setAsking] = useState<HistoryEntry | null>(null);
  const pending = new Set((open.data ?? []).map((c) => markKey(c.date, c.period)));
  const requestLabel = ({ date: isoDate, period }: HistoryEntry) => {
    const date = formatDate(isoDate);
    return period === 0 ? t`Request a correction: ${date}` : t`Request a correction: ${date}, period ${period}`;
  };
  const cell = (entry: HistoryEntry) =>
    pending.has(markKey(entry.date, entry.period)) ? (
      <WordBadge variant="light" color="blue.9" tt="none">
        {t`Correction requested`}
      </WordBadge>
    ) : (
      <Button size="compact-xs" variant="subtle" onClick={() => setAsking(entry)} aria-label={requestLabel(entry)}>
        {t`Request a correction`}
      </Button>
    );
  const dialog = <RequestCorrectionModal entry={asking} onClose={() => setAsking(null)} />;
  return { cell, dialog };
}

function RequestCorrectionModal({ entry, onClose }: { entry: HistoryEntry | null; onClose: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const request = useMutation({
    mutationFn: (body: CreateCorrectionBody) => api.post('/api/corrections', body, CorrectionSchema),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: correctionsKey }),
  });
  const close = () => {
    setReason('');
    request.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!entry) return;
    request.mutate({ date: entry.date, period: entry.period, reason }, { onSuccess: close });
  };
  const blank = reason.trim() === '';
  return (
    <Modal opened={entry !== null} onClose={close} title={t`Request a correction`} centered>
      {entry && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              <MarkSentence entry={entry} />
            </Text>
            <Textarea
              label={t`Reason`}
              {...bindValue(reason, setReason)}
              maxLength={MAX_CORRECTION_TEXT}
              autosize
              minRows={3}
              required
              error={request.error?.message}
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" loading={request.isPending} disabled={blank}>
                <Trans>Send request</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** The mark being disputed, and what happens to the request. */
function MarkSentence({ entry }: { entry: HistoryEntry }) {
  const { i18n } = useLingui();
  const date = formatDate(entry.date);
  const { period } = entry;
  const className = entry.class;
  const status = i18n._(STATUS_IN_SENTENCE[entry.status]);
  return period === 0 ? (
    <Trans>
      Your mark on {date} in {className} is <strong>{status}</strong>. Say why it is wrong; faculty accept the request (the mark changes) or reply.
    </Trans>
  ) : (
    <Trans>
      Your mark on {date}, period {period} in {className} is <strong>{status}</strong>. Say why it is wrong; faculty accept the request (the mark
      changes) or reply.
    </Trans>
  );
}

const STATE_WORD: Record<Correction['state'], { label: MessageDescriptor; color: string }> = {
  open: { label: msg`Waiting`, color: 'blue.9' },
  accepted: { label: msg`Accepted`, color: 'teal.9' },
  declined: { label: msg`Declined`, color: 'red.9' },
};

/** One of the student's requests: the mark, the reason, what became of it and faculty's reply. */
function MyCorrection({ correction: c }: { correction: Correction }) {
  const { t, i18n } = useLingui();
  const date = formatDate(c.date);
  const { period, className, reason, reply, decidedBy } = c;
  return (
    <Alert variant="light" color="gray" p="sm">
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm">{period === 0 ? t`${date}, ${className}: ${reason}` : t`${date}, period ${period}, ${className}: ${reason}`}</Text>
        <WordBadge color={STATE_WORD[c.state].color} tt="none">
          {i18n._(STATE_WORD[c.state].label)}
        </WordBadge>
      </Group>
      {reply && (
        <Text size="sm" mt={4}>
          {decidedBy ? t`Reply from ${decidedBy}: ${reply}` : t`Reply: ${reply}`}
        </Text>
      )}
    </Alert>
  );
}

/** The student's requests: those waiting, then those decided, with faculty's replies. */
export function MyCorrections() {
  const open = useCorrections('open');
  const closed = useCorrections('closed');
  const all = [...(open.data ?? []), ...(closed.data ?? [])];
  if (all.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="my-corrections-heading">
      <Title order={2} fz="lg" mb="sm" id="my-corrections-heading">
        <Trans>My correction requests</Trans>
      </Title>
      <Stack gap="sm">
        {all.map((c) => (
          <MyCorrection key={c.id} correction={c} />
        ))}
      </Stack>
    </Card>
  );
}
