import { DEMO_FACULTY } from '../src/server/seed/demo';
import { startTestIdentityProvider, type TestIdentityProvider } from '../src/server/test/oidc-provider';
import { expectAccessible, expect, test } from './fixtures';
import { IDP_NAME, identityProviderPort } from './identity-provider';

const PORT = Number(process.env.E2E_PORT ?? 3100);
let idp: TestIdentityProvider;

test.beforeAll(async () => {
  idp = await startTestIdentityProvider({
    port: identityProviderPort(PORT),
    redirectUris: [`http://localhost:${PORT}/api/auth/oidc/callback`],
    accounts: [
      { sub: 'campus-kavitha', email: DEMO_FACULTY.email, email_verified: true },
      { sub: 'campus-visitor', email: 'visitor@elsewhere.edu', email_verified: true },
    ],
  });
});
test.afterAll(async () => idp?.close());

test('a faculty member signs in through the campus identity provider and lands where they were going', async ({ page }) => {
  await page.goto('/login?returnUrl=%2Ffaculty-details');
  const button = page.getByRole('link', { name: `Sign in with ${IDP_NAME}` });
  await expect(button).toBeVisible();
  await expectAccessible(page);
  await button.click();

  // The provider's own sign-in page.
  await expect(page.getByRole('heading', { name: 'Campus sign-in' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Username' }).fill('campus-kavitha');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.waitForURL('**/faculty-details');
  await expect(page.getByRole('heading', { level: 1, name: 'Faculty Dashboard' })).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');

  // Someone the portal does not know comes back to the sign-in page with the reason, and no session.
  // (The provider would remember Kavitha's sign-in: forget it, as another person at another browser.)
  await page.context().clearCookies({ domain: '127.0.0.1' });
  await page.getByRole('link', { name: `Sign in with ${IDP_NAME}` }).click();
  await page.getByRole('textbox', { name: 'Username' }).fill('campus-visitor');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/login?sso=unknown');
  await expect(page.getByRole('alert')).toHaveText('No account of this portal uses that e-mail address. Ask an administrator to add you.');
  expect((await page.request.get('/api/auth/me')).ok()).toBe(true);
  expect((await (await page.request.get('/api/auth/me')).json()).user).toBeNull();
});
