import { useLingui } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { canManageProfiles } from '../../../../shared/access';
import { useMe } from '../../../lib/session';
import { PendingProfiles } from '../components/pending-profiles';
import { ProfilesList } from '../components/profiles-list';

/**
 * /welcome: the navbar (from the layout), the registered profiles, and the nested outlet. Staff also review the profiles waiting for approval.
 */
export function WelcomePage() {
  const { t } = useLingui();
  const user = useMe().data;
  const name = user?.name;
  const canManage = canManageProfiles(user);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{name !== undefined ? t`Welcome, ${name}` : t`Welcome`}</Title>
        <Text c="dimmed">
          {canManage
            ? t`Student profiles registered on the portal. Review new ones, filter them, open a student’s attendance, or edit and delete a profile.`
            : t`Your registered profile and links.`}
        </Text>
      </Stack>
      {canManage && <PendingProfiles />}
      <ProfilesList viewer={user} />
      <Outlet />
    </Stack>
  );
}

export default WelcomePage;
