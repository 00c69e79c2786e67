import { expectAccessible, expectRecordReadsWhole, signIn, test, expect } from './fixtures';
import { demoPin } from '../src/server/seed/demo';

const DEMO_STUDENT_PIN = demoPin(2, 1);
const OTHER_PIN = demoPin(0, 1);
// Registrations take roster PINs only. A different one on each run, so that a retry on the same
// database does not meet its own earlier profile.
const SERIAL = 2 + (Date.now() % 58);
const NEW_PIN = demoPin(5, SERIAL);
const WELCOME_PIN = demoPin(6, SERIAL);

test('a student registers with a live preview, and the form is cleared after saving; the profile waits for review', async ({ page }) => {
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Student Registration' })).toBeVisible();
  await expectAccessible(page);

  const form = page.getByRole('form', { name: 'Student registration' });
  const register = form.getByRole('button', { name: 'Register' });
  await expect(register).toBeDisabled();
  await expect(page.getByRole('heading', { name: 'Profile Preview' })).toHaveCount(0);

  await form.getByRole('textbox', { name: 'Full Name' }).fill('Sahithi Reddy');
  const preview = page.getByRole('region', { name: 'Profile Preview' });
  await expect(preview.getByRole('heading', { name: 'Sahithi Reddy' })).toBeVisible();
  await expect(preview.getByText('Designation/Branch')).toBeVisible();

  await form.getByRole('textbox', { name: 'Designation/Branch' }).fill('B.Tech CSE, 3rd year');
  await form.getByRole('textbox', { name: 'PIN Number' }).fill(NEW_PIN);
  // No picture at this address (a 404): the preview falls back to the default avatar.
  await form.getByRole('textbox', { name: 'Profile Image URL' }).fill(new URL('/api/no-such-picture.png', page.url()).href);
  await expect(form.getByRole('textbox', { name: 'Image Description (Alt Text)' })).toHaveValue('Profile image of Sahithi Reddy');
  await expect(preview.getByRole('img', { name: 'Profile image of Sahithi Reddy' })).toHaveAttribute('src', '/default-avatar.svg');
  await form.getByRole('textbox', { name: 'GitHub URL' }).fill('https://github.com/sahithi');
  await expect(preview.getByRole('link', { name: /GitHub/ })).toHaveAttribute('href', 'https://github.com/sahithi');
  await expect(preview.getByRole('link', { name: /LinkedIn/ })).toHaveCount(0);
  await expectAccessible(page);

  await form.getByRole('textbox', { name: 'PIN Number' }).fill('NOTAPIN1');
  await register.click();
  await expect(form.getByRole('alert').first()).toContainText('This PIN Number is not on the roster');
  await form.getByRole('textbox', { name: 'PIN Number' }).fill(NEW_PIN);
  await register.click();
  await expect(form.getByRole('status')).toHaveText(
    /^Registration Successful! Your profile has been saved\.\s*It will appear once faculty have reviewed it\.$/,
  );
  await expect(form.getByRole('textbox', { name: 'Full Name' })).toHaveValue('');
  await expect(page.getByRole('heading', { name: 'Profile Preview' })).toHaveCount(0);

  await form.getByRole('textbox', { name: 'Full Name' }).fill('Somebody Else');
  await form.getByRole('textbox', { name: 'Designation/Branch' }).fill('MBA');
  await form.getByRole('textbox', { name: 'PIN Number' }).fill(NEW_PIN);
  await form.getByRole('button', { name: 'Register' }).click();
  await expect(form.getByRole('alert').first()).toContainText('User with this PIN already exists');
  await expect(form.getByRole('textbox', { name: 'Full Name' })).toHaveValue('Somebody Else');
});

test('faculty search a demo PIN and see the summary, history and PDF; the PIN stays in the URL', async ({ page }) => {
  await signIn(page, 'faculty');
  await page.goto('/faculty');
  const search = page.getByRole('search', { name: 'Student search' });
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(search.getByText('Please enter a PIN number')).toBeVisible();

  await search.getByRole('textbox', { name: 'PIN Number' }).fill(OTHER_PIN);
  await search.getByRole('textbox', { name: 'PIN Number' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/faculty\\?pin=${OTHER_PIN}$`));
  const record = page.getByRole('region', { name: /^Attendance record of / });
  await expect(record.getByText(`PIN: ${OTHER_PIN}`)).toBeVisible();
  await expect(record.getByRole('heading', { name: 'Attendance Summary' })).toBeVisible();
  await expect(record.getByText('Total Days')).toBeVisible();
  await expect(record.getByText(/^\d+\.\d%$/).first()).toBeVisible();
  // A bar at 0% has no width, so only its presence is checked.
  await expect(record.getByRole('progressbar', { name: /^Present / })).toHaveAttribute('aria-valuenow', /^\d/);
  await expect(record.getByRole('progressbar', { name: /^Absent / })).toHaveAttribute('aria-valuenow', /^\d/);
  const rows = record.getByRole('table', { name: 'Attendance History' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('CSE1');
  await expect(rows.nth(1)).toContainText(/Present|Absent/);
  await expectAccessible(page);

  const downloading = page.waitForEvent('download');
  await record.getByRole('button', { name: 'Export to PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`attendance-${OTHER_PIN}.pdf`);

  // Printed, the page is the report alone: no navigation, search box or buttons.
  await expect(record.getByRole('button', { name: 'Print' })).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(search).toBeHidden();
  await expect(record.getByRole('button', { name: 'Export to PDF' })).toBeHidden();
  await expect(record.getByRole('table', { name: 'Attendance History' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  await page.reload();
  await expect(record.getByText(`PIN: ${OTHER_PIN}`)).toBeVisible();
  await expect(search.getByRole('textbox', { name: 'PIN Number' })).toHaveValue(OTHER_PIN);

  await search.getByRole('textbox', { name: 'PIN Number' }).fill('NOSUCHPIN1');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No student records found for PIN: NOSUCHPIN1')).toBeVisible();
  await expect(page.getByText("If automatic search doesn't work, click on the search button.")).toBeVisible();
});

test('the demo student sees their own record at once and is refused another student’s', async ({ page }) => {
  await signIn(page, 'student');
  const search = page.getByRole('search', { name: 'Student search' });
  await expect(search.getByRole('textbox', { name: 'PIN Number' })).toHaveValue(DEMO_STUDENT_PIN);
  const record = page.getByRole('region', { name: /^Attendance record of / });
  await expect(record.getByText(`PIN: ${DEMO_STUDENT_PIN}`)).toBeVisible();
  await expect(record.getByRole('table', { name: 'Attendance History' })).toBeVisible();
  await expectAccessible(page);

  await search.getByRole('textbox', { name: 'PIN Number' }).fill(OTHER_PIN);
  await search.getByRole('button', { name: 'Search' }).click();
  // The refusal, by its words: the own record's "Low attendance" warning is an alert too, and may
  // still be on screen for a moment as the answer arrives.
  await expect(page.getByRole('alert').filter({ hasText: 'Students can only see their own attendance and profile' })).toBeVisible();
  await expect(record).toHaveCount(0);
  await expect(page.getByRole('alert', { name: 'Low attendance' })).toHaveCount(0);
});

test('the record reads whole on a 360 px phone, for the student and for faculty looking them up', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 640 });
  await signIn(page, 'student');
  const record = page.getByRole('region', { name: /^Attendance record of / });
  await expect(record.getByRole('heading', { name: 'Monthly trend' })).toBeVisible();
  await expect(record.getByRole('heading', { name: 'Attendance History' })).toBeVisible();
  await expect(record.getByRole('button', { name: /^Request a correction: / }).first()).toBeVisible();
  for (const status of ['Present', 'Absent']) await expect(record.getByText(status, { exact: true }).first()).toBeVisible();
  await expectRecordReadsWhole(page);
  await expectAccessible(page);

  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const phone = await context.newPage();
  await signIn(phone, 'faculty');
  await phone.goto(`/faculty?pin=${DEMO_STUDENT_PIN}`);
  const found = phone.getByRole('region', { name: /^Attendance record of / });
  await expect(found.getByText(`PIN: ${DEMO_STUDENT_PIN}`)).toBeVisible();
  await expect(found.getByRole('heading', { name: 'Attendance History' })).toBeVisible();
  await expect(found.getByText('Absent', { exact: true }).first()).toBeVisible();
  await expectRecordReadsWhole(phone);
  await expectAccessible(phone);
  await context.close();
});

test('faculty filter, edit and delete registered profiles on the welcome page', async ({ page }) => {
  // Registered by faculty, so approved at once.
  await signIn(page, 'faculty');
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'Student registration' });
  await form.getByRole('textbox', { name: 'Full Name' }).fill('Welcome Tester');
  await form.getByRole('textbox', { name: 'Designation/Branch' }).fill('B.Tech ECE');
  await form.getByRole('textbox', { name: 'PIN Number' }).fill(WELCOME_PIN);
  await form.getByRole('button', { name: 'Register' }).click();
  await expect(form.getByRole('status')).toHaveText('Registration Successful! Your profile has been saved.');

  await page.goto('/welcome');
  const list = page.getByRole('region', { name: 'Registered Profiles' });
  await list.getByRole('textbox', { name: 'Filter profiles' }).fill(WELCOME_PIN.toLowerCase());
  await expect(list.getByRole('heading', { name: 'Welcome Tester' })).toBeVisible();
  await expectAccessible(page);

  await list.getByRole('button', { name: 'Edit profile of Welcome Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit profile' });
  await dialog.getByRole('textbox', { name: 'Designation/Branch' }).fill('M.Tech ECE');
  await dialog.getByRole('textbox', { name: 'LinkedIn URL' }).fill('javascript:alert(1)');
  await dialog.getByRole('textbox', { name: 'LinkedIn URL' }).blur();
  await expect(dialog.getByText('LinkedIn URL must be a link starting with http:// or https://')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'LinkedIn URL' }).fill('https://www.linkedin.com/in/welcome');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(list.getByText('M.Tech ECE')).toBeVisible();
  await expect(list.getByRole('link', { name: /LinkedIn/ })).toHaveAttribute('href', 'https://www.linkedin.com/in/welcome');

  await list.getByRole('button', { name: 'Delete profile of Welcome Tester' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete profile' });
  await expect(confirm).toContainText(`Delete the profile of Welcome Tester (PIN ${WELCOME_PIN})?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(list.getByRole('heading', { name: 'Welcome Tester' })).toHaveCount(0);
  // Run alone, this was the only approved profile; after other journeys, others stay and none match.
  await expect(
    list.getByText(new RegExp(`^No profiles (match “${WELCOME_PIN.toLowerCase()}”|have been approved yet)\\.$`)),
  ).toBeVisible();
});
