import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Code, Group, Image, List, PasswordInput, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { EMAIL_CHOICES, EmailChoiceSchema, type EmailChoice } from '../../../../shared/schemas/alerts';
import { TOTP_CODE_MESSAGE, TotpCodeSchema } from '../../../../shared/schemas/auth';
import { AccountLanguageSwitcher } from '../../../components/account-language';
import { bindValue, failureText, FormFailure, FormSaved } from '../../../components/forms';
import { LoadError } from '../../../components/load-states';
import { PageLoader } from '../../../components/page-loader';
import { serverText } from '../../../i18n/server-text';
import { saveFile } from '../../../lib/save-file';
import { useMe } from '../../../lib/session';
import { useNotificationSettings, useUpdateNotificationSettings } from '../api/notification-settings';
import { useTotpDisable, useTotpEnable, useTotpSetup, useTotpStatus } from '../api/totp';

/** Why a request failed, in the language shown. */
function messageOf(error: unknown, i18n: I18n): string {
  return failureText(error, i18n._(msg`Something went wrong. Please try again.`));
}

/** The e-mail choices as /account offers them (the shared EMAIL_CHOICE_LABELS, in the language shown). */
const EMAIL_CHOICE_WORDS: Record<EmailChoice, MessageDescriptor> = {
  immediate: msg`At once, one e-mail per alert`,
  daily: msg`A daily digest at 07:30`,
  weekly: msg`A weekly digest, Mondays at 07:30`,
  never: msg`Never: only in the portal`,
};

/** The otpauth address as a QR code, drawn in the browser: the secret never goes to another service. */
function QrCode({ text }: { text: string }) {
  const { t } = useLingui();
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(({ default: QRCode }) =>
      QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then((drawn) => live && setSvg(drawn)),
    );
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <div style={{ width: 200, height: 200, background: 'white', borderRadius: 8 }}>
      {svg && <Image src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} alt={t`QR code to scan with your authenticator app`} w={200} h={200} />}
    </div>
  );
}

/** /account: who is signed in, two-step sign-in (TOTP), the account's language and how alerts come by e-mail. */
export default function AccountPage() {
  const { t, i18n } = useLingui();
  const me = useMe().data;
  const status = useTotpStatus();
  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>
          <Trans>My account</Trans>
        </Title>
        {me && (
          <Text c="dimmed">
            {me.name} · {me.email}
          </Text>
        )}
      </div>
      {me?.totpSetupRequired && (
        <Alert color="yellow" icon={<IconAlertCircle size={18} aria-hidden />} role="status">
          <Text fw={600} size="sm">
            <Trans>Set up two-step sign-in to continue</Trans>
          </Text>
          <Trans>This portal asks faculty and administrators for a code from an authenticator app at each password sign-in. Set it up below; the rest of the portal opens once it is on.</Trans>
        </Alert>
      )}
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="totp-heading">
        <Title order={2} fz="lg" id="totp-heading" mb="xs">
          <Trans>Two-step sign-in</Trans>
        </Title>
        {status.isPending ? <PageLoader label={t`Loading`} /> : status.isError ? <LoadError title={t`Error loading two-step sign-in`} message={messageOf(status.error, i18n)} onRetry={() => void status.refetch()} /> : <TotpSection enabled={status.data.enabled} codesLeft={status.data.recoveryCodesLeft} required={status.data.required} />}
      </Card>
      {/* Held to the TOTP setup, the session may reach nothing else. */}
      {!me?.totpSetupRequired && (
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="language-heading">
          <Title order={2} fz="lg" id="language-heading" mb="xs">
            <Trans>Language</Trans>
          </Title>
          <AccountLanguageSwitcher
            size="sm"
            label={t`The portal's language`}
            description={t`The portal and its e-mails to you use it, on every device you sign in on.`}
          />
        </Card>
      )}
      {!me?.totpSetupRequired && (
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="alert-emails-heading">
          <Title order={2} fz="lg" id="alert-emails-heading" mb="xs">
            <Trans>Alert e-mails</Trans>
          </Title>
          <AlertEmailsSection />
        </Card>
      )}
    </Stack>
  );
}

/** How alerts come by e-mail: saved as soon as another is chosen. The bell shows them whatever the choice. */
function AlertEmailsSection() {
  const { t, i18n } = useLingui();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  // The choice being saved shows as chosen at once; a failed one goes back to the stored choice.
  const [choosing, setChoosing] = useState<EmailChoice | null>(null);
  const [saved, setSaved] = useState<EmailChoice | null>(null);
  if (settings.isPending) return <PageLoader label={t`Loading`} />;
  if (settings.isError) return <LoadError title={t`Error loading the alert e-mails`} message={messageOf(settings.error, i18n)} onRetry={() => void settings.refetch()} />;
  const choiceLabel = (choice: EmailChoice) => i18n._(EMAIL_CHOICE_WORDS[choice]);
  const savedChoice = saved ? choiceLabel(saved) : '';
  const value = choosing ?? settings.data.email;
  const choose = (chosen: string) => {
    const parsed = EmailChoiceSchema.safeParse(chosen);
    if (!parsed.success || parsed.data === value) return;
    setSaved(null);
    setChoosing(parsed.data);
    update.mutate(parsed.data, {
      onSuccess: (answer) => setSaved(answer.email),
      onSettled: (_answer, _error, sent) => setChoosing((current) => (current === sent ? null : current)),
    });
  };
  return (
    <Stack gap="sm">
      {update.isError && <FormFailure onDismiss={() => update.reset()}>{failureText(update.error, t`Error saving the choice. Please try again.`)}</FormFailure>}
      {saved && !update.isError && <FormSaved onDismiss={() => setSaved(null)}>{t`Saved: ${savedChoice}.`}</FormSaved>}
      <Radio.Group value={value} onChange={choose} label={t`How alerts reach you by e-mail`} description={t`The bell at the top of each page shows them, whatever you choose.`}>
        <Stack gap="xs" mt="xs">
          {EMAIL_CHOICES.map((choice) => (
            <Radio key={choice} value={choice} label={choiceLabel(choice)} />
          ))}
        </Stack>
      </Radio.Group>
    </Stack>
  );
}

function TotpSection({ enabled, codesLeft, required }: { enabled: boolean; codesLeft: number; required: boolean }) {
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [asking, setAsking] = useState<'setup' | 'disable' | null>(null);

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (setup) return <EnableForm setup={setup} onEnabled={(c) => { setSetup(null); setCodes(c); }} onCancel={() => setSetup(null)} />;
  if (asking) {
    return <PasswordStep action={asking} onSetup={(s) => { setAsking(null); setSetup(s); }} onDone={() => setAsking(null)} />;
  }
  if (!enabled) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          <Trans>Off. With it on, signing in with your password also asks for a 6-digit code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, FreeOTP and the like).</Trans>
        </Text>
        <StartSetup onSetup={setSetup} />
      </Stack>
    );
  }
  return (
    <Stack gap="sm" align="flex-start">
      <Group gap="xs">
        <IconShieldCheck size={20} color="var(--portal-text-present)" aria-hidden />
        <Text size="sm" fw={600}>
          <Trans>On. {codesLeft} of 10 recovery codes left.</Trans>
        </Text>
      </Group>
      <Group gap="sm">
        <Button variant="default" onClick={() => setAsking('setup')}>
          <Trans>Set up again</Trans>
        </Button>
        {!required && (
          <Button variant="default" color="red" onClick={() => setAsking('disable')}>
            <Trans>Turn off</Trans>
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function StartSetup({ onSetup }: { onSetup: (setup: { secret: string; otpauthUrl: string }) => void }) {
  const { i18n } = useLingui();
  const start = useTotpSetup();
  return (
    <>
      {start.isError && <FormFailure>{messageOf(start.error, i18n)}</FormFailure>}
      <Button loading={start.isPending} onClick={() => start.mutate({}, { onSuccess: onSetup })}>
        <Trans>Set up two-step sign-in</Trans>
      </Button>
    </>
  );
}

/** Setting up again and turning off ask for the current password first. */
function PasswordStep({ action, onSetup, onDone }: { action: 'setup' | 'disable'; onSetup: (setup: { secret: string; otpauthUrl: string }) => void; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [password, setPassword] = useState('');
  const setup = useTotpSetup();
  const disable = useTotpDisable();
  const pending = setup.isPending || disable.isPending;
  const error = setup.error ?? disable.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (action === 'setup') setup.mutate({ password }, { onSuccess: onSetup });
    else disable.mutate(password, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} aria-label={action === 'setup' ? t`Set up again` : t`Turn off two-step sign-in`}>
      <Stack gap="sm" maw={360}>
        {error && <FormFailure>{messageOf(error, i18n)}</FormFailure>}
        <PasswordInput label={t`Current password`} autoComplete="current-password" {...bindValue(password, setPassword)} data-autofocus />
        <Group gap="sm">
          <Button type="submit" loading={pending} disabled={password === ''} color={action === 'disable' ? 'red.9' : undefined}>
            {action === 'setup' ? t`Continue` : t`Turn off`}
          </Button>
          <Button variant="default" onClick={onDone} disabled={pending}>
            <Trans>Cancel</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EnableForm({ setup, onEnabled, onCancel }: { setup: { secret: string; otpauthUrl: string }; onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const { t, i18n } = useLingui();
  const enable = useTotpEnable();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!TotpCodeSchema.safeParse(code).success) {
      setProblem(serverText(TOTP_CODE_MESSAGE));
      return;
    }
    enable.mutate(code.trim(), { onSuccess: (answer) => onEnabled(answer.recoveryCodes), onError: (error) => setProblem(messageOf(error, i18n)) });
  };
  return (
    <form onSubmit={submit} aria-label={t`Turn on two-step sign-in`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            <Trans>1. Scan this code with your authenticator app.</Trans>
          </Text>
          <QrCode text={setup.otpauthUrl} />
          <Text size="sm">
            <Trans>Or type this key into the app:</Trans>
          </Text>
          <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </Code>
        </Stack>
        <Stack gap="sm">
          <Text size="sm">
            <Trans>2. Enter the 6-digit code the app shows.</Trans>
          </Text>
          <TextInput label={t`Code`} autoComplete="one-time-code" inputMode="numeric" maxLength={6} {...bindValue(code, setCode)} error={problem} />
          <Group gap="sm">
            <Button type="submit" loading={enable.isPending} disabled={code.trim() === ''}>
              <Trans>Turn on</Trans>
            </Button>
            <Button variant="default" onClick={onCancel} disabled={enable.isPending}>
              <Trans>Cancel</Trans>
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  return (
    <Stack gap="sm" align="flex-start">
      <Alert color="green" icon={<IconShieldCheck size={18} aria-hidden />} role="status">
        <Text fw={600} size="sm">
          <Trans>Two-step sign-in is on.</Trans>
        </Text>
        <Text size="sm">
          <Trans>Keep these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown only now.</Trans>
        </Text>
      </Alert>
      <List aria-label={t`Recovery codes`} listStyleType="none" spacing={4}>
        {codes.map((code) => (
          <List.Item key={code}>
            <Code fz="md">{code}</Code>
          </List.Item>
        ))}
      </List>
      <Group gap="sm">
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => saveFile(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }), 'recovery-codes.txt')}>
          <Trans>Download codes</Trans>
        </Button>
        <Button onClick={onDone}>
          <Trans>I have saved them</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
