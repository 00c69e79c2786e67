import { Alert, Button, Center, Stack } from '@mantine/core';
import { useRouteError } from 'react-router';

/** Shown when a screen fails to load or render, e.g. after a new release replaced its chunk. */
export function RouteError() {
  const error = useRouteError();
  const message = error instanceof Error ? error.message : 'Something went wrong while showing this page.';
  return (
    <Center p="md" mih="60vh">
      <Alert color="red" title="This page could not be shown" maw={520}>
        <Stack align="flex-start">
          {message}
          <Button variant="light" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </Stack>
      </Alert>
    </Center>
  );
}
