import { Card, Code, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ALERT_RULE_LABELS, type AlertRule } from '../../../../shared/schemas/alerts';
import { useFormFailure } from '../../../components/forms';
import { QueryState } from '../../../components/load-states';
import { useAlertSettings, useUpdateAlertRules } from '../api/alerts';

/** /admin/alerts: the threshold the portal warns below, and each alert rule switched on or off. */
export function AlertsPage() {
  const settings = useAlertSettings();
  const update = useUpdateAlertRules();
  const failure = useFormFailure();
  // A switch being saved shows as switched at once; a failed one goes back to the stored state.
  const [switching, setSwitching] = useState<Partial<Record<AlertRule, boolean>>>({});

  const toggle = (rule: AlertRule, enabled: boolean) => {
    failure.clear();
    setSwitching((current) => ({ ...current, [rule]: enabled }));
    update.mutate(
      { rules: [{ rule, enabled }] },
      {
        onSuccess: () => notifications.show({ color: 'green', message: `${ALERT_RULE_LABELS[rule].title} is now ${enabled ? 'on' : 'off'}.` }),
        onError: (error) => failure.fail(error, 'Error saving the alert rule. Please try again.'),
        onSettled: () =>
          setSwitching((current) => {
            if (current[rule] !== enabled) return current;
            const rest = { ...current };
            delete rest[rule];
            return rest;
          }),
      },
    );
  };

  let body;
  if (!settings.isSuccess) {
    body = <QueryState query={settings} loading="Loading the alert rules" failed="Error loading the alert rules" />;
  } else {
    const { threshold, rules } = settings.data;
    const enabledOf = (rule: AlertRule, stored: boolean) => switching[rule] ?? stored;
    body = (
      <>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="threshold-heading">
          <Title order={3} fz="md" id="threshold-heading" mb={4}>
            Threshold
          </Title>
          <Text fz="xl" fw={700}>
            {threshold}%
          </Text>
          <Text size="sm" c="dimmed">
            Set by <Code>PORTAL_THRESHOLD</Code> in the server&apos;s settings; a restart applies a new one.
          </Text>
        </Card>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="rules-heading">
          <Title order={3} fz="md" id="rules-heading" mb="sm">
            Rules
          </Title>
          {failure.alert}
          <Stack gap="lg" mt={failure.alert ? 'sm' : 0}>
            {rules.map(({ rule, enabled }) => (
              <Switch
                key={rule}
                checked={enabledOf(rule, enabled)}
                onChange={(event) => toggle(rule, event.currentTarget.checked)}
                label={ALERT_RULE_LABELS[rule].title}
                // The label wraps the description too: the switch is named by its title, described by the rest.
                aria-label={ALERT_RULE_LABELS[rule].title}
                description={ALERT_RULE_LABELS[rule].description(threshold)}
                size="md"
              />
            ))}
          </Stack>
        </Card>
      </>
    );
  }

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>Alerts</Title>
        <Text c="dimmed" size="sm">
          While a rule is on, each time it fires puts a notice in the bell of the account it concerns: the student, or for a register not taken the slot&apos;s teacher. Whether it also comes by e-mail is each account&apos;s choice on its account page.
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

export default AlertsPage;
