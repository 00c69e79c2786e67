import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Leaving a page with unsaved changes asks first (decision 16): a link or Back inside the
 * portal through the router's blocker and a dialog; a reload or a closed tab through the
 * browser's own question (beforeunload), which is all a page may do there. Changes of the
 * address that stay on the page (another date or period, `?date=`) are not leaving: the draft
 * keeps each register's marks.
 */
export function useUnsavedGuard(unsaved: boolean) {
  const { t } = useLingui();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!unsaved) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);

  const dialog = (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t`Leave without submitting?`}
      centered
    >
      <Text size="sm" mb="md">
        <Trans>
          The marks you changed on this register are not submitted. They stay in this browser as a draft until you submit or
          discard them.
        </Trans>
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          <Trans>Stay on this page</Trans>
        </Button>
        <Button color="red.9" onClick={() => blocker.proceed?.()}>
          <Trans>Leave</Trans>
        </Button>
      </Group>
    </Modal>
  );
  return dialog;
}
