import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErasureSchema, type Erasure } from '../../../shared/schemas/personal-data';
import { api } from '../../lib/api-client';
import { failureText, FormFailure } from '../forms';
import { studentRecordsKey } from './api';

/** POST /api/admin/students/:pin/erase with the PIN typed again. */
export function eraseStudent(pin: string, confirm: string): Promise<Erasure> {
  return api.post(`/api/admin/students/${encodeURIComponent(pin)}/erase`, { confirm }, ErasureSchema);
}

/**
 * 'Erase personal data' on an admin's view of a student: a dialog that says what goes and what
 * stays, and erases only once the student's PIN is typed in it.
 */
export function EraseStudentButton({ pin, name, onErased }: { pin: string; name: string; onErased?: (erasure: Erasure) => void }) {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const queryClient = useQueryClient();
  const erase = useMutation({
    mutationFn: () => eraseStudent(pin, typed),
    onSuccess: (erasure) => {
      setOpened(false);
      void queryClient.invalidateQueries({ queryKey: studentRecordsKey });
      const { pseudonym } = erasure;
      notifications.show({ color: 'green', message: t`${name}'s personal data is erased. Their marks stay as ${pseudonym}.` });
      onErased?.(erasure);
    },
  });
  const matches = typed.trim().toUpperCase() === pin;
  const close = () => {
    if (erase.isPending) return;
    setOpened(false);
    setTyped('');
    erase.reset();
  };
  return (
    <>
      <Button variant="outline" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setOpened(true)}>
        <Trans>Erase personal data</Trans>
      </Button>
      <Modal opened={opened} onClose={close} title={t`Erase ${name}'s personal data?`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (matches) erase.mutate();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              <Trans>This cannot be undone. It deletes:</Trans>
            </Text>
            <List size="sm" spacing={4} withPadding>
              <List.Item>
                <Trans>the student's account and every signed-in browser,</Trans>
              </List.Item>
              <List.Item>
                <Trans>their profile and photo,</Trans>
              </List.Item>
              <List.Item>
                <Trans>their correction requests and the contact messages sent from their e-mail.</Trans>
              </List.Item>
            </List>
            <Text size="sm">
              <Trans>
                Their marks stay in the registers, so that counts and reports do not change, but their name, PIN and e-mail are
                replaced everywhere, the audit trail included, by a pseudonym such as ERASED-1A2B3C4D. Download their data first if
                they asked for it.
              </Trans>
            </Text>
            <TextInput
              label={t`Type the PIN ${pin} to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            {erase.error && <FormFailure>{failureText(erase.error, t`Error erasing the data. Please try again.`)}</FormFailure>}
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={erase.isPending}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" color="red" disabled={!matches} loading={erase.isPending}>
                <Trans>Erase</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
