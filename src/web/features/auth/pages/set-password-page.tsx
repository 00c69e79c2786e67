import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { NoticeFooter } from '../../../components/notice-links';
import { NewPasswordSchema, SET_PASSWORD_LINK_MESSAGE } from '../../../../shared/schemas/auth';
import { FormFailure, FormSaved, useFormFailure, bindValue } from '../../../components/forms';
import { serverText } from '../../../i18n/server-text';
import { ApiError } from '../../../lib/api-client';
import { useSetPasswordWithLink } from '../api/set-password';

/** What the page says of a link without its token, in English; shown in the language shown (MISSING_TOKEN). */
export const MISSING_TOKEN_MESSAGE =
  'This link is incomplete. Open the whole link you were sent, or ask an administrator for a new one.';
const MISSING_TOKEN = msg`This link is incomplete. Open the whole link you were sent, or ask an administrator for a new one.`;
const MISMATCH = msg`The two passwords are not the same`;

/** The token of a set-password link: `#token=…` in the address (a fragment never reaches a server log). */
function tokenFromFragment(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token?.trim() ? token.trim() : null;
}

/**
 * /set-password#token=…: a new account, or one whose password was reset, chooses its password.
 * The token is read once and taken out of the address bar, so it stays out of the history,
 * bookmarks and screenshots.
 */
export function SetPasswordPage() {
  const { i18n } = useLingui();
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromFragment(location.hash));
  const hasFragment = location.hash !== '';
  useEffect(() => {
    // Replaces the entry (history.replaceState in the browser): Back does not bring the token back.
    if (hasFragment) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [hasFragment, location.pathname, location.search, navigate]);

  return (
    <Center mih="100dvh" p="md" bg="var(--portal-surface-muted)">
      <Stack gap={0} w="100%" maw={440}>
        <Paper component="main" id="main-content" withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={440}>
          <Stack gap={4} mb="lg" ta="center">
            <Title order={1}>
              <Trans>Choose your password</Trans>
            </Title>
            <Text c="dimmed">
              <Trans>University Portal</Trans>
            </Text>
          </Stack>
          {token ? <SetPasswordForm token={token} /> : <LinkProblem message={i18n._(MISSING_TOKEN)} />}
        </Paper>
        <NoticeFooter />
      </Stack>
    </Center>
  );
}

function LinkProblem({ message }: { message: string }) {
  const { t } = useLingui();
  return (
    <Stack gap="md">
      <FormFailure title={t`This link does not work`}>{message}</FormFailure>
      <Anchor component={Link} to="/login" ta="center">
        <Trans>Go to sign in</Trans>
      </Anchor>
    </Stack>
  );
}

function SetPasswordForm({ token }: { token: string }) {
  const { t, i18n } = useLingui();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string | undefined; confirm?: string | undefined }>({});
  const failure = useFormFailure();
  const [linkDead, setLinkDead] = useState(false);
  const save = useSetPasswordWithLink();

  if (linkDead) return <LinkProblem message={serverText(SET_PASSWORD_LINK_MESSAGE)} />;
  if (save.isSuccess) {
    return (
      <Stack gap="md">
        <FormSaved title={t`Password set`}>
          <Trans>Your password is set. Sign in with your e-mail and your new password.</Trans>
        </FormSaved>
        <Button component={Link} to="/login" fullWidth>
          <Trans>Go to sign in</Trans>
        </Button>
      </Stack>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    const parsed = NewPasswordSchema.safeParse(password);
    const found = {
      password: parsed.success ? undefined : serverText(parsed.error.issues[0]?.message),
      confirm: parsed.success && confirm !== password ? i18n._(MISMATCH) : undefined,
    };
    setErrors(found);
    if (found.password || found.confirm) return;
    save.mutate(
      { token, password },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.said === SET_PASSWORD_LINK_MESSAGE) setLinkDead(true);
          else failure.fail(error, t`Error setting the password. Please try again.`);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Choose your password`}>
      <Stack gap="md">
        {failure.alert}
        <PasswordInput
          label={t`New password`}
          description={t`At least 10 characters, hard to guess: a few unrelated words work well.`}
          autoComplete="new-password"
          {...bindValue(password, setPassword)}
          error={errors.password}
          required
          data-autofocus
        />
        <PasswordInput
          label={t`New password again`}
          autoComplete="new-password"
          {...bindValue(confirm, setConfirm)}
          error={errors.confirm}
          required
        />
        <Button type="submit" fullWidth loading={save.isPending}>
          <Trans>Set password</Trans>
        </Button>
      </Stack>
    </form>
  );
}

export default SetPasswordPage;
