import { Trans } from '@lingui/react/macro';
import { Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { ContactDetails } from '../components/contact-details';
import { ContactForm } from '../components/contact-form';

/** /contact-us (public): where to find us, and a form that sends us a message. */
export function ContactPage() {
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Contact Us</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Questions about attendance, registration or the portal? Send us a message. Fields marked * are required.</Trans>
        </Text>
      </Stack>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <ContactDetails />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <ContactForm />
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export default ContactPage;
