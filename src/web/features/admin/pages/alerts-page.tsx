import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Code, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { REARM_POINTS, type AlertRule } from '../../../../shared/schemas/alerts';
import { useFormFailure } from '../../../components/forms';
import { QueryState } from '../../../components/load-states';
import { numberLocale } from '../../../i18n/i18n';
import { useAlertSettings, useUpdateAlertRules } from '../api/alerts';

/** A percentage as the language writes it: 75 is "75%". */
function percent(value: number): string {
  return new Intl.NumberFormat(numberLocale(), { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
}

/** What each rule does, as this page says it (ALERT_RULE_LABELS, in the language shown). */
const RULE_TEXTS: Record<AlertRule, { title: MessageDescriptor; description: (threshold: number, i18n: I18n) => string }> = {
  'below-threshold': {
    title: msg`Below the threshold`,
    description: (value, i18n) => {
      const threshold = percent(value);
      const rearmAt = percent(value + REARM_POINTS);
      return i18n._(
        msg`A student's attendance in the current term, overall or in a subject, falls below ${threshold} after at least 5 lectures held. It fires again only after they are back at ${rearmAt} or more.`,
      );
    },
  },
  'consecutive-absences': {
    title: msg`Absent three times in a row`,
    description: (_threshold, i18n) => i18n._(msg`A student is absent from 3 lectures of a subject (or 3 whole days) in a row. It fires again after a present mark.`),
  },
  'register-missing': {
    title: msg`Register not taken`,
    description: (_threshold, i18n) =>
      i18n._(msg`A timetabled lecture's register is not saved 30 minutes after its period ends. The slot's teacher is reminded, else the admins.`),
  },
};

/** /admin/alerts: the threshold the portal warns below, and each alert rule switched on or off. */
export function AlertsPage() {
  const { t, i18n } = useLingui();
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
        onSuccess: () => {
          const ruleTitle = i18n._(RULE_TEXTS[rule].title);
          notifications.show({ color: 'green', message: enabled ? t`${ruleTitle} is now on.` : t`${ruleTitle} is now off.` });
        },
        onError: (error) => failure.fail(error, t`Error saving the alert rule. Please try again.`),
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
    body = <QueryState query={settings} loading={t`Loading the alert rules`} failed={t`Error loading the alert rules`} />;
  } else {
    const { threshold, rules } = settings.data;
    const enabledOf = (rule: AlertRule, stored: boolean) => switching[rule] ?? stored;
    const setting = 'PORTAL_THRESHOLD';
    body = (
      <>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="threshold-heading">
          <Title order={3} fz="md" id="threshold-heading" mb={4}>
            <Trans>Threshold</Trans>
          </Title>
          <Text fz="xl" fw={700}>
            {percent(threshold)}
          </Text>
          <Text size="sm" c="dimmed">
            <Trans>
              Set by <Code>{setting}</Code> in the server&apos;s settings; a restart applies a new one.
            </Trans>
          </Text>
        </Card>
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="rules-heading">
          <Title order={3} fz="md" id="rules-heading" mb="sm">
            <Trans>Rules</Trans>
          </Title>
          {failure.alert}
          <Stack gap="lg" mt={failure.alert ? 'sm' : 0}>
            {rules.map(({ rule, enabled }) => (
              <Switch
                key={rule}
                checked={enabledOf(rule, enabled)}
                onChange={(event) => toggle(rule, event.currentTarget.checked)}
                label={i18n._(RULE_TEXTS[rule].title)}
                // The label wraps the description too: the switch is named by its title, described by the rest.
                aria-label={i18n._(RULE_TEXTS[rule].title)}
                description={RULE_TEXTS[rule].description(threshold, i18n)}
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
        <Title order={2}>
          <Trans>Alerts</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>
            While a rule is on, each time it fires puts a notice in the bell of the account it concerns: the student, or for a
            register not taken the slot&apos;s teacher. Whether it also comes by e-mail is each account&apos;s choice on its
            account page.
          </Trans>
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

export default AlertsPage;
