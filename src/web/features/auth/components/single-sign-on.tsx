import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Divider } from '@mantine/core';
import { IconAlertCircle, IconBuildingBank } from '@tabler/icons-react';
import type { LoginRole } from '../../../../shared/constants';
import { OIDC_ERROR_MESSAGES, type OidcErrorReason } from '../../../../shared/sign-in-rules';
import { serverText } from '../../../i18n/server-text';

/** The reason a single sign-on came back (`/login?sso=…`), in words; null when there is none. */
export function singleSignOnFailure(reason: string | null): string | null {
  return reason && Object.hasOwn(OIDC_ERROR_MESSAGES, reason) ? OIDC_ERROR_MESSAGES[reason as OidcErrorReason] : null;
}

/**
 * "Sign in with <name>" on a tab: a plain link to the start of the single sign-on,
 * which the server answers with a redirect to the identity provider; the tab decides the role.
 */
export function SingleSignOnButton({ name, role, returnUrl, withDivider }: { name: string; role: LoginRole; returnUrl: string | null; withDivider: boolean }) {
  const { t } = useLingui();
  const query = new URLSearchParams({ role, ...(returnUrl ? { returnUrl } : {}) });
  return (
    <>
      <Button component="a" href={`/api/auth/oidc/start?${query}`} variant="default" fullWidth leftSection={<IconBuildingBank size={18} aria-hidden />}>
        <Trans>Sign in with {name}</Trans>
      </Button>
      {withDivider && <Divider label={t`or with your password`} labelPosition="center" my="md" />}
    </>
  );
}

export function SingleSignOnFailure({ message }: { message: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} role="alert" mb="md">
      {serverText(message)}
    </Alert>
  );
}
