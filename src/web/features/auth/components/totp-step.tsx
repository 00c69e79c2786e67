import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { TOTP_CODE_MESSAGE, TotpCodeSchema } from '../../../../shared/schemas/auth';
import { useFormFailure, bindValue } from '../../../components/forms';
import { verifyTotp, type SignedInUser } from '../../../lib/sign-in';
import { serverText } from '../../../i18n/server-text';

/**
 * The second step of a password sign-in: the six digits from the authenticator
 * app, or one of the recovery codes. A timed-out step sends the user back to the password.
 */
export function TotpStep({ idPrefix, onSuccess, onRestart }: { idPrefix: string; onSuccess: (user: SignedInUser) => void; onRestart: () => void }) {
  const { t } = useLingui();
  const [pending, setPending] = useState(false);
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const failure = useFormFailure();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [recovery]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    failure.clear();
    if (!recovery && !TotpCodeSchema.safeParse(value).success) {
      failure.setFailure(serverText(TOTP_CODE_MESSAGE));
      return;
    }
    setPending(true);
    verifyTotp(recovery ? { recoveryCode: value } : { code: value.trim() }).then(
      (user) => {
        setPending(false);
        onSuccess(user);
      },
      (error: unknown) => {
        setPending(false);
        failure.fail(error, t`Sign-in failed. Please try again.`);
        setValue('');
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Two-step sign-in`}>
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg">
            <Trans>Two-step sign-in</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            {recovery ? t`Enter one of the recovery codes you saved. Each works once.` : t`Enter the 6-digit code from your authenticator app.`}
          </Text>
        </div>
        {failure.alert}
        <TextInput
          ref={input}
          id={`${idPrefix}-${recovery ? 'recovery' : 'code'}`}
          label={recovery ? t`Recovery code` : t`Code`}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          inputMode={recovery ? 'text' : 'numeric'}
          maxLength={recovery ? 40 : 6}
          spellCheck={false}
          {...bindValue(value, setValue)}
        />
        <Button type="submit" fullWidth loading={pending} disabled={value.trim() === ''}>
          <Trans>Verify</Trans>
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={() => { setRecovery(!recovery); setValue(''); failure.clear(); }}>
            {recovery ? t`Use a code from the app` : t`Use a recovery code`}
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={onRestart}>
            <Trans>Start again</Trans>
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
