import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Checkbox, Group, Loader, PasswordInput, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { LoginRole } from '../../../../shared/constants';
import { LoginFormSchema, type LoginForm as LoginFormValues, type User } from '../../../../shared/schemas/auth';
import { useLogin } from '../../../lib/session';

// Only accounts with two-step sign-in see it: it loads after the password, not with the page.
const TotpStep = lazy(() => import('./totp-step').then((module) => ({ default: module.TotpStep })));

interface LoginFormProps {
  role: LoginRole;
  onSuccess: (user: User) => void;
}

/** One tab's sign-in form: email, password, Remember me, and the Login button's three states. */
export function LoginForm({ role, onSuccess }: LoginFormProps) {
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const [succeeded, setSucceeded] = useState(false);
  // The password was right and the account has two-step sign-in: the code comes next.
  const [secondStep, setSecondStep] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<LoginFormValues>({
    resolver: zodResolver(LoginFormSchema),
    mode: 'onTouched',
    reValidateMode: 'onChange',
    defaultValues: { email: '', password: '', remember: false },
  });
  const id = `login-${role}`;
  const loading = login.isPending;

  const submit = handleSubmit((values) => {
    setFailure(null);
    setSucceeded(false);
    login.mutate(
      { ...values, role },
      {
        onSuccess: (user) => {
          if (!user) {
            setSecondStep(true);
            return;
          }
          setSucceeded(true);
          onSuccess(user);
        },
        onError: (error) => setFailure(`Login failed: ${error.message || 'Invalid credentials'}`),
      },
    );
  });

  if (secondStep) {
    return (
      <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
        <TotpStep idPrefix={id} onSuccess={onSuccess} onRestart={() => setSecondStep(false)} />
      </Suspense>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={`${role === 'faculty' ? 'Faculty' : 'Student'} login`}>
      <Stack gap="md">
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" withCloseButton onClose={() => setFailure(null)} closeButtonLabel="Dismiss">
            {failure}
          </Alert>
        )}
        <TextInput
          id={`${id}-email`}
          label="Email"
          type="email"
          autoComplete="username"
          placeholder="you@university.edu"
          required
          error={errors.email?.message}
          {...register('email')}
        />
        <PasswordInput
          id={`${id}-password`}
          label="Password"
          autoComplete="current-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <Group justify="space-between" wrap="nowrap">
          <Controller
            control={control}
            name="remember"
            render={({ field }) => (
              <Checkbox
                label="Remember me"
                checked={field.value}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
              />
            )}
          />
          <ForgotPassword />
        </Group>
        <Button
          type="submit"
          fullWidth
          disabled={!isValid || loading}
          leftSection={loading ? <Loader size={16} color="gray" aria-hidden /> : succeeded ? <IconCheck size={18} aria-hidden /> : undefined}
          color={succeeded ? 'teal' : undefined}
        >
          {loading ? 'Authenticating...' : succeeded ? 'Success' : 'Login'}
        </Button>
      </Stack>
    </form>
  );
}

function ForgotPassword() {
  return (
    <Popover width={260} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <Anchor component="button" type="button" size="sm">
          Forgot Password?
        </Anchor>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm">Passwords are reset by the portal administrator. Please contact them to set a new one.</Text>
      </Popover.Dropdown>
    </Popover>
  );
}
