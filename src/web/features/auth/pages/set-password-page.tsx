import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { NoticeFooter } from '../../../components/notice-links';
import { NewPasswordSchema, SET_PASSWORD_LINK_MESSAGE } from '../../../../shared/schemas/auth';
import { FormFailure, FormSaved, useFormFailure, bindValue } from '../../../components/forms';
import { ApiError } from '../../../lib/api-client';
import { useSetPasswordWithLink } from '../api/set-password';

export const MISSING_TOKEN_MESSAGE =
  'This link is incomplete. Open the whole link you were sent, or ask an administrator for a new one.';
const MISMATCH_MESSAGE = 'The two passwords are not the same';

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
              Choose your password
            </Title>
            <Text c="dimmed">University Portal</Text>
          </Stack>
          {token ? <SetPasswordForm token={token} /> : <LinkProblem message={MISSING_TOKEN_MESSAGE} />}
        </Paper>
        <NoticeFooter />
      </Stack>
    </Center>
  );
}

function LinkProblem({ message }: { message: string }) {
  return (
    <Stack gap="md">
      <FormFailure title="This link does not work">{message}</FormFailure>
      <Anchor component={Link} to="/login" ta="center">
        Go to sign in
      </Anchor>
    </Stack>
  );
}

function SetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string | undefined; confirm?: string | undefined }>({});
  const failure = useFormFailure();
  const [linkDead, setLinkDead] = useState(false);
  const save = useSetPasswordWithLink();

  if (linkDead) return <LinkProblem message={SET_PASSWORD_LINK_MESSAGE} />;
  if (save.isSuccess) {
    return (
      <Stack gap="md">
        <FormSaved title="Password set">Your password is set. Sign in with your e-mail and your new password.</FormSaved>
        <Button component={Link} to="/login" fullWidth>
          Go to sign in
        </Button>
      </Stack>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    failure.clear();
    const parsed = NewPasswordSchema.safeParse(password);
    const found = {
      password: parsed.success ? undefined : parsed.error.issues[0]?.message,
      confirm: parsed.success && confirm !== password ? MISMATCH_MESSAGE : undefined,
    };
    setErrors(found);
    if (found.password || found.confirm) return;
    save.mutate(
      { token, password },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.said === SET_PASSWORD_LINK_MESSAGE) setLinkDead(true);
          else failure.fail(error, 'Error setting the password. Please try again.');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Choose your password">
      <Stack gap="md">
        {failure.alert}
        <PasswordInput
          label="New password"
          description="At least 10 characters, hard to guess: a few unrelated words work well."
          autoComplete="new-password"
          {...bindValue(password, setPassword)}
          error={errors.password}
          required
          data-autofocus
        />
        <PasswordInput
          label="New password again"
          autoComplete="new-password"
          {...bindValue(confirm, setConfirm)}
          error={errors.confirm}
          required
        />
        <Button type="submit" fullWidth loading={save.isPending}>
          Set password
        </Button>
      </Stack>
    </form>
  );
}

export default SetPasswordPage;
