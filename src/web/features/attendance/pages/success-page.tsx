import { Trans } from '@lingui/react/macro';
import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';

export function SuccessPage() {
  return (
    <Center py="xl">
      <Paper withBorder radius="md" p="xl" maw={480} w="100%">
        <Stack align="center" ta="center">
          <ThemeIcon color="teal" size={64} radius="xl" variant="light" aria-hidden>
            <IconCircleCheck size={40} />
          </ThemeIcon>
          <Title order={1} fz="h2">
            <Trans>Submission Successful!</Trans>
          </Title>
          <Text c="dimmed">
            <Trans>Your attendance has been submitted successfully.</Trans>
          </Text>
          <Button component={Link} to="/welcome">
            <Trans>Go Back to Home</Trans>
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}

export default SuccessPage;
