import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Center, Stack } from '@mantine/core';
import { useRouteError } from 'react-router';

/** Shown when a screen fails to load or render, e.g. after a new release replaced its chunk. */
export function RouteError() {
  const { t } = useLingui();
  const error = useRouteError();
  const message = error instanceof Error ? error.message : t`Something went wrong while showing this page.`;
  return (
    <Center p="md" mih="60vh">
      <Alert color="red" title={t`This page could not be shown`} maw={520}>
        <Stack align="flex-start">
          {message}
          <Button variant="light" onClick={() => window.location.reload()}>
            <Trans>Reload the page</Trans>
          </Button>
        </Stack>
      </Alert>
    </Center>
  );
}
