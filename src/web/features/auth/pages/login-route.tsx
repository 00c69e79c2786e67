import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useBranding } from '../../../lib/branding';
import { useForgetPreviousUser, useMe, useSignedIn } from '../../../lib/session';
import type { SignedInUser } from '../../../lib/sign-in';
import { LoginPage } from './login-page';

/**
 * /login inside the app (after signing out, or when a sign-in session ends): the same page as the
 * sign-in shell shows, its links followed by the router and the user kept in the app's session.
 */
export function LoginRoute() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const branding = useBranding().data;
  const signedIn = useSignedIn();
  const me = useMe().data;
  useForgetPreviousUser();
  const open = useCallback((path: string) => void navigate(path), [navigate]);
  const enter = useCallback(
    (path: string, user: SignedInUser) => {
      signedIn(user);
      void navigate(path, { replace: true });
    },
    [navigate, signedIn],
  );
  return <LoginPage search={search} branding={branding} open={open} enter={enter} knownUser={me} />;
}

export default LoginRoute;
