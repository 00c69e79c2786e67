import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Checkbox, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { lazy, Suspense, useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import type { LoginRole } from '../../../../shared/constants';
import type { LoginForm as LoginFormValues } from '../../../../shared/schemas/auth';
import { emailProblem, passwordProblem } from '../../../../shared/sign-in-rules';
import { useFormFailure } from '../../../components/forms';
import { signIn, type SignedInUser } from '../../../lib/sign-in';
import { serverText } from '../../../i18n/server-text';

// Only accounts with two-step sign-in see it: it loads after the password, not with the page.
const TotpStep = lazy(() => import('./totp-step').then((module) => ({ default: module.TotpStep })));

interface LoginFormProps {
  role: LoginRole;
  onSuccess: (user: SignedInUser) => void;
}

/** One tab's sign-in form: email, password, Remember me, and the Login button's three states. */
export function LoginForm({ role, onSuccess }: LoginFormProps) {
  const { t } = useLingui();
  const [loading, setLoading] = useState(false);
  const failure = useFormFailure();
  const [succeeded, setSucceeded] = useState(false);
  // The password was right and the account has two-step sign-in: the code comes next.
  const [secondStep, setSecondStep] = useState(false);
  const form = useLoginFields();
  const id = `login-${role}`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = form.submitted();
    if (!values) return;
    if (loading) return;
    failure.clear();
    setSucceeded(false);
    setLoading(true);
    signIn({ ...values, email: values.email.trim(), role }).then(
      (user) => {
        setLoading(false);
        if (!user) {
          setSecondStep(true);
          return;
        }
        setSucceeded(true);
        onSuccess(user);
      },
      (error: Error) => {
        setLoading(false);
        failure.setFailure(t`Login failed: ${error.message || serverText('Invalid credentials')}`);
      },
    );
  };

  if (secondStep) {
    return (
      <Suspense fallback={<Loader size="sm" role="status" aria-label={t`Loading`} />}>
        <TotpStep idPrefix={id} onSuccess={onSuccess} onRestart={() => setSecondStep(false)} />
      </Suspense>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={role === 'faculty' ? t`Faculty login` : t`Student login`}>
      <Stack gap="md">
        {failure.alert}
        <TextInput
          id={`${id}-email`}
          label={t`Email`}
          type="email"
          autoComplete="username"
          placeholder="you@university.edu"
          required
          {...form.field('email')}
        />
        <PasswordInput
          id={`${id}-password`}
          label={t`Password`}
          autoComplete="current-password"
          required
          {...form.field('password')}
        />
        <ForgotPassword>
          <Checkbox label={t`Remember me`} checked={form.values.remember} onChange={(event) => form.setRemember(event.currentTarget.checked)} />
        </ForgotPassword>
        <Button
          type="submit"
          fullWidth
          disabled={!form.valid || loading}
          leftSection={loading ? <Loader size={16} color="gray" aria-hidden /> : succeeded ? <IconCheck size={18} aria-hidden /> : undefined}
          color={succeeded ? 'teal' : undefined}
        >
          {loading ? t`Authenticating...` : succeeded ? t`Success` : t`Login`}
        </Button>
      </Stack>
    </form>
  );
}

type TextField = 'email' | 'password';

/**
 * The sign-in form's state, checked with the sign-in rules (shared/sign-in-rules.ts, from which
 * the contract's LoginFormSchema is built) on every change: a field's problem shows once it has
 * been left (or the form sent) and follows what is typed after that. Two fields and a checkbox
 * need no form library on the page everyone loads first.
 */
function useLoginFields() {
  const [values, setValues] = useState<LoginFormValues>({ email: '', password: '', remember: false });
  const [touched, setTouched] = useState<Record<TextField, boolean>>({ email: false, password: false });
  const problems: Partial<Record<TextField, string>> = { email: serverText(emailProblem(values.email)), password: serverText(passwordProblem(values.password)) };
  const valid = !problems.email && !problems.password;
  return {
    values,
    valid,
    field: (name: TextField) => ({
      value: values[name],
      error: touched[name] ? problems[name] : undefined,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const value = event.currentTarget.value;
        setValues((current) => ({ ...current, [name]: value }));
      },
      onBlur: () => setTouched((current) => (current[name] ? current : { ...current, [name]: true })),
    }),
    setRemember: (remember: boolean) => setValues((current) => ({ ...current, remember })),
    /** The values to send, or null (with every problem shown) when they are not valid yet. */
    submitted: (): LoginFormValues | null => {
      setTouched({ email: true, password: true });
      return valid ? values : null;
    },
  };
}

/**
 * The row of Remember me (the children) and the specification's Forgot Password link, which
 * opens a short note below the row on how passwords are reset.
 */
function ForgotPassword({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const noteId = useId();
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap">
        {children}
        <Anchor component="button" type="button" size="sm" aria-expanded={open} aria-controls={noteId} onClick={() => setOpen((value) => !value)}>
          <Trans>Forgot Password?</Trans>
        </Anchor>
      </Group>
      <Text id={noteId} size="sm" c="dimmed" hidden={!open}>
        <Trans>Passwords are reset by the portal administrator. Please contact them to set a new one.</Trans>
      </Text>
    </Stack>
  );
}
