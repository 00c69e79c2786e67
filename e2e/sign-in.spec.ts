import { expectAccessible, signIn, test, expect } from './fixtures';

test('the login page has both tabs, validates, and is accessible', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'University Portal' })).toBeVisible();
  await expect(page.getByText('Access your academic resources')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Faculty' })).toHaveAttribute('aria-selected', 'true');
  const form = page.getByRole('form', { name: 'Faculty login' });
  const button = form.getByRole('button', { name: 'Login' });
  await expect(button).toBeDisabled();
  await form.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
  await form.getByRole('textbox', { name: 'Password' }).focus();
  await expect(form.getByText('Please enter a valid email address')).toBeVisible();
  await expectAccessible(page);
});

test('a wrong password shows the login failure alert', async ({ page }) => {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Faculty login' });
  await form.getByRole('textbox', { name: 'Email' }).fill('faculty@demo.university.edu');
  await form.getByRole('textbox', { name: 'Password' }).fill('wrong password');
  await form.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toContainText('Login failed: Invalid credentials');
});

test('the demo faculty signs in, lands on the dashboard, and signs out', async ({ page }) => {
  await signIn(page, 'faculty');
  await expect(page.getByRole('heading', { name: 'Faculty Dashboard' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdashboard$/);
});

test('the demo student signs in on the Student tab and lands on their attendance', async ({ page }) => {
  await signIn(page, 'student');
  await expect(page).toHaveURL(/\/faculty$/);
  await expectAccessible(page);
});

test('a guarded page sends a signed-out visitor to login and back after sign-in', async ({ page }) => {
  await page.goto('/attendance/CSE3?x=1');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fattendance%2FCSE3%3Fx%3D1$/);
  const form = page.getByRole('form', { name: 'Faculty login' });
  await form.getByRole('textbox', { name: 'Email' }).fill('faculty@demo.university.edu');
  await form.getByRole('textbox', { name: 'Password' }).fill('faculty-demo-2026');
  await form.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/attendance/CSE3?x=1');
});

test('an unknown path goes to the login page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/login$/);
});
