import { Alert, Button, Card, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { bindValue } from '../forms';
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

function lecture(period: number): string {
  return period === 0 ? '' : `, period ${period}`;
}

/** The Correction column's cell: the request button, or what became of the request. */
export function useCorrectionCell() {
  const open = useCorrections('open');
  const [asking, setAsking] = useState<HistoryEntry | null>(null);
  const pending = new Set((open.data ?? []).map((c) => markKey(c.date, c.period)));
  const cell = (entry: HistoryEntry) =>
    pending.has(markKey(entry.date, entry.period)) ? (
      <WordBadge variant="light" color="blue.9" tt="none">
        Correction requested
      </WordBadge>
    ) : (
      <Button size="compact-xs" variant="subtle" onClick={() => setAsking(entry)} aria-label={`Request a correction: ${formatDate(entry.date)}${lecture(entry.period)}`}>
        Request a correction
      </Button>
    );
  const dialog = <RequestCorrectionModal entry={asking} onClose={() => setAsking(null)} />;
  return { cell, dialog };
}

function RequestCorrectionModal({ entry, onClose }: { entry: HistoryEntry | null; onClose: () => void }) {
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
    <Modal opened={entry !== null} onClose={close} title="Request a correction" centered>
      {entry && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              Your mark on {formatDate(entry.date)}
              {lecture(entry.period)} in {entry.class} is <strong>{entry.status}</strong>. Say why it is wrong; faculty accept
              the request (the mark changes) or reply.
            </Text>
            <Textarea
              label="Reason"
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
                Cancel
              </Button>
              <Button type="submit" loading={request.isPending} disabled={blank}>
                Send request
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

const STATE_WORD: Record<Correction['state'], { label: string; color: string }> = {
  open: { label: 'Waiting', color: 'blue.9' },
  accepted: { label: 'Accepted', color: 'teal.9' },
  declined: { label: 'Declined', color: 'red.9' },
};

/** The student's requests: those waiting, then those decided, with faculty's replies. */
export function MyCorrections() {
  const open = useCorrections('open');
  const closed = useCorrections('closed');
  const all = [...(open.data ?? []), ...(closed.data ?? [])];
  if (all.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="my-corrections-heading">
      <Title order={2} fz="lg" mb="sm" id="my-corrections-heading">
        My correction requests
      </Title>
      <Stack gap="sm">
        {all.map((c) => (
          <Alert key={c.id} variant="light" color="gray" p="sm">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Text size="sm">
                {formatDate(c.date)}
                {lecture(c.period)}, {c.className}: {c.reason}
              </Text>
              <WordBadge color={STATE_WORD[c.state].color} tt="none">
                {STATE_WORD[c.state].label}
              </WordBadge>
            </Group>
            {c.reply && (
              <Text size="sm" mt={4}>
                Reply{c.decidedBy ? ` from ${c.decidedBy}` : ''}: {c.reply}
              </Text>
            )}
          </Alert>
        ))}
      </Stack>
    </Card>
  );
}
