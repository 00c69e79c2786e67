import { Anchor, Center, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconSchool, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { homePathFor } from '../../../../shared/access';
import type { LoginRole } from '../../../../shared/constants';
import type { User } from '../../../../shared/schemas/auth';
import { useBranding } from '../../../lib/branding';
import { useForgetPreviousUser, useMe } from '../../../lib/session';
import { LoginForm } from '../components/login-form';
import { singleSignOnFailure, SingleSignOnButton, SingleSignOnFailure, useSignInOptions } from '../components/single-sign-on';
import { safeReturnUrl } from '../../../../shared/redirect';

/** Long enough to read 'Success' before the next page appears. */
const SUCCESS_PAUSE_MS = 500;

export function LoginPage() {
  const [tab, setTab] = useState<LoginRole>('faculty');
  // The university's name and logo above the specification's 'University Portal', when configured.
  const branding = useBranding().data;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const me = useMe();
  useForgetPreviousUser();
  const returnUrl = safeReturnUrl(params.get('returnUrl'));
  const options = useSignInOptions().data;
  const ssoFailure = singleSignOnFailure(params.get('sso'));
  const [leaving, setLeaving] = useState(false);

  if (me.data && !leaving) return <Navigate to={returnUrl ?? homePathFor(me.data.role)} replace />;

  const onSuccess = (user: User) => {
    setLeaving(true);
    window.setTimeout(() => navigate(returnUrl ?? homePathFor(user.role), { replace: true }), SUCCESS_PAUSE_MS);
  };

  return (
    <Center mih="100dvh" p="md" bg="var(--portal-surface-muted)">

      <Paper component="main" id="main-content" withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={440}>
        <Stack gap={4} mb="lg" ta="center">
          {(branding?.logoUrl || branding?.name) && (
            <Stack gap={4} align="center" mb="xs">
              {branding.logoUrl && <img src={branding.logoUrl} alt="" height={48} width={48} style={{ objectFit: 'contain' }} />}
              {branding.name && (
                <Text fw={600} c="dimmed">
                  {branding.name}
                </Text>
              )}
            </Stack>
          )}
          <Title order={1}>
            University Portal
          </Title>
          <Text c="dimmed">Access your academic resources</Text>
        </Stack>
        {ssoFailure && <SingleSignOnFailure message={ssoFailure} />}
        <Tabs value={tab} onChange={(value) => value && setTab(value as LoginRole)} variant="pills" radius="md">
          <Tabs.List grow mb="lg">
            <Tabs.Tab value="faculty" leftSection={<IconSchool size={16} aria-hidden />}>
              Faculty
            </Tabs.Tab>
            <Tabs.Tab value="student" leftSection={<IconUser size={16} aria-hidden />}>
              Student
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="faculty">
            {options?.sso && <SingleSignOnButton name={options.sso.name} role="faculty" returnUrl={returnUrl} withDivider={options.passwordLogin} />}
            {options?.passwordLogin !== false && <LoginForm role="faculty" onSuccess={onSuccess} />}
          </Tabs.Panel>
          <Tabs.Panel value="student">
            {options?.sso && <SingleSignOnButton name={options.sso.name} role="student" returnUrl={returnUrl} withDivider={options.passwordLogin} />}
            {options?.passwordLogin !== false && <LoginForm role="student" onSuccess={onSuccess} />}
          </Tabs.Panel>
        </Tabs>
        <Group justify="center" gap="lg" mt="xl">
          <Anchor component={Link} to="/register" size="sm">
            Register a student profile
          </Anchor>
          <Anchor component={Link} to="/contact-us" size="sm">
            Contact us
          </Anchor>
        </Group>
      </Paper>
    </Center>
  );
}

export default LoginPage;
