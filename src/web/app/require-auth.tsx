import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Stack } from '@mantine/core';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { canAdminister, isStudent } from '../../shared/access';
import { LoadError } from '../components/load-states';
import { PageLoader } from '../components/page-loader';
import { useMe, useSignedOutHere } from '../lib/session';

/** The page guard: signed-out visitors go to /login with a returnUrl. */
export function RequireAuth() {
  const { t } = useLingui();
  const me = useMe();
  const signedOutHere = useSignedOutHere();
  const location = useLocation();
  if (me.isPending) return <PageLoader label={t`Checking your sign-in`} />;
  if (me.isError) {
    return <LoadError title={t`Cannot reach the server`} message={me.error.message} onRetry={() => void me.refetch()} m="md" />;
  }
  if (!me.data) {
    // Signing out goes to /login as it is: the next user starts from their own home page.
    if (signedOutHere) return <Navigate to="/login" replace />;
    const returnUrl = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?returnUrl=${encodeURIComponent(returnUrl)}`} replace />;
  }
  // PORTAL_REQUIRE_TOTP: the server answers nothing else until two-step sign-in is on.
  if (me.data.totpSetupRequired && location.pathname !== '/account') return <Navigate to="/account" replace />;
  return <Outlet />;
}

/**
 * Staff screens (registers, reports, the inbox): a student who opens one gets a clear note instead
 * of a page of errors. The server refuses their data anyway; this only spares them the confusion.
 */
export function RequireStaff() {
  const { t } = useLingui();
  const me = useMe();
  if (isStudent(me.data)) {
    return (
      <Alert color="yellow" title={t`This page is for faculty only`} m="md">
        <Stack align="flex-start">
          <Trans>Students can see their own attendance and profile.</Trans>
          <Button component={Link} to="/faculty" variant="light">
            <Trans>Go to my attendance</Trans>
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <Outlet />;
}

/** Administration screens: faculty and students get a clear note; the server refuses them anyway. */
export function RequireAdmin() {
  const { t } = useLingui();
  const me = useMe();
  if (!canAdminister(me.data)) {
    return (
      <Alert color="yellow" title={t`This page is for administrators only`} m="md">
        <Stack align="flex-start">
          <Trans>Ask an administrator of the portal if you need a change to accounts, classes, the roster or terms.</Trans>
          <Button component={Link} to="/welcome" variant="light">
            <Trans>Go to the home page</Trans>
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <Outlet />;
}
