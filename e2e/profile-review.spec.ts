import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { demoPin, demoRoster } from '../src/server/seed/demo';
import { expectAccessible, signIn, test, expect } from './fixtures';

const STUDENT_PIN = demoPin(2, 1);
const STUDENT_NAME = demoRoster().find((s) => s.pin === STUDENT_PIN)!.name;
// Another roster PIN, different on each run, so that a retry on the same database finds it free.
const OTHER_PIN = demoPin(4, 2 + (Date.now() % 58));
const PENDING_REVIEW = 'It will appear once faculty have reviewed it.';
const SAVED = 'Registration Successful! Your profile has been saved.';

async function register(page: Page, profile: { name: string; designation: string; pin?: string; github?: string }) {
  const form = page.getByRole('form', { name: 'Student registration' });
  await form.getByRole('textbox', { name: 'Full Name' }).fill(profile.name);
  await form.getByRole('textbox', { name: 'Designation/Branch' }).fill(profile.designation);
  if (profile.pin) await form.getByRole('textbox', { name: 'PIN Number' }).fill(profile.pin);
  if (profile.github) await form.getByRole('textbox', { name: 'GitHub URL' }).fill(profile.github);
  await form.getByRole('button', { name: 'Register' }).click();
  return form.getByRole('status');
}

async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
}

test('a stranger’s profile on a student’s PIN waits for review; the student’s own replaces it at once', async ({ page }) => {
  // A stranger, not signed in, registers on the demo student's PIN: it waits for faculty.
  await page.goto('/register');
  const strangers = await register(page, { name: 'Not The Student', designation: 'Impostor', pin: STUDENT_PIN });
  await expect(strangers).toContainText(SAVED);
  await expect(strangers).toContainText(PENDING_REVIEW);
  await expectAccessible(page);

  // The student does not see it, and registers their own profile with their PIN filled in.
  await signIn(page, 'student');
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  const mine = page.getByRole('region', { name: 'My Profile' });
  await expect(mine.getByText('You have not registered a profile yet.')).toBeVisible();
  await expect(page.getByText('Not The Student')).toHaveCount(0);
  await mine.getByRole('link', { name: 'Register my profile' }).click();
  await expect(page.getByRole('form', { name: 'Student registration' }).getByRole('textbox', { name: 'PIN Number' })).toHaveValue(STUDENT_PIN);
  const own = await register(page, { name: STUDENT_NAME, designation: 'B.Tech CSE, 3rd year', github: 'https://github.com/demo-student' });
  await expect(own).toHaveText(SAVED);

  // It shows at once, on /welcome (where they may edit it) and on their record.
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  await expect(mine.getByRole('heading', { name: STUDENT_NAME })).toBeVisible();
  await expect(mine.getByText('B.Tech CSE, 3rd year')).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Edit my profile' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('banner').getByRole('link', { name: 'My Attendance' }).click();
  const record = page.getByRole('region', { name: /^Attendance record of / });
  await expect(record.getByText('B.Tech CSE, 3rd year')).toBeVisible();
  await expect(record.getByRole('link', { name: /GitHub/ })).toHaveAttribute('href', 'https://github.com/demo-student');

  // They may remove it too (which leaves the demo data as it was).
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click();
  await mine.getByRole('button', { name: 'Delete my profile' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete my profile' });
  await expect(confirm).toContainText(`Delete your profile (PIN ${STUDENT_PIN})?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(mine.getByText('You have not registered a profile yet.')).toBeVisible();
  await signOut(page);

  // The student's registration replaced the stranger's: faculty find nothing of it to review.
  await signIn(page, 'faculty');
  await page.goto('/welcome');
  const review = page.getByRole('region', { name: 'Pending review' });
  await expect(review.getByRole('status')).toBeVisible();
  await expect(review.getByRole('heading', { name: 'Not The Student' })).toHaveCount(0);
});

test('a stranger’s profile on another PIN waits for review, and shows on the student’s record once faculty approve it', async ({ page }) => {
  await page.goto('/register');
  const another = await register(page, { name: 'Review Me', designation: 'M.Tech VLSI', pin: OTHER_PIN, github: 'https://github.com/review-me' });
  await expect(another).toContainText(PENDING_REVIEW);

  // Faculty: not on the student's record yet; on /welcome it waits for review.
  await signIn(page, 'faculty');
  await page.goto(`/faculty?pin=${OTHER_PIN}`);
  const record = page.getByRole('region', { name: /^Attendance record of / });
  await expect(record.getByText(`PIN: ${OTHER_PIN}`)).toBeVisible();
  await expect(record.getByText('M.Tech VLSI')).toHaveCount(0);

  await page.goto('/welcome');
  const review = page.getByRole('region', { name: 'Pending review' });
  const card = review.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Review Me' }) });
  await expect(card.getByText('Pending review')).toBeVisible();
  await expect(card.getByText(`PIN: ${OTHER_PIN}`)).toBeVisible();
  await expectAccessible(page);

  // On a phone the review list does not scroll sideways.
  await page.setViewportSize({ width: 360, height: 640 });
  await expect(card.getByRole('button', { name: 'Approve profile of Review Me' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1366, height: 768 });

  // Approved with the keyboard; the focus stays in the review section.
  await card.getByRole('button', { name: 'Approve profile of Review Me' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('The profile of Review Me has been approved. It now shows on their record.')).toBeVisible();
  await expect(review.getByRole('heading', { name: 'Review Me' })).toHaveCount(0);
  await expect(review.getByRole('heading', { name: 'Pending review' })).toBeFocused();
  const approved = page.getByRole('region', { name: 'Registered Profiles' });
  await approved.getByRole('textbox', { name: 'Filter profiles' }).fill(OTHER_PIN);
  await expect(approved.getByRole('heading', { name: 'Review Me' })).toBeVisible();

  await page.goto(`/faculty?pin=${OTHER_PIN}`);
  await expect(record.getByText('M.Tech VLSI')).toBeVisible();
  await expect(record.getByRole('link', { name: /GitHub/ })).toHaveAttribute('href', 'https://github.com/review-me');
});

test('a photo uploaded with a registration shows on the cards and the record, and can be removed again', async ({ page }) => {
  const pin = demoPin(7, 2 + (Date.now() % 58));
  const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#1d4e89' } }).jpeg().toBuffer();
  await signIn(page, 'faculty');
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'Student registration' });
  // As a user does: the button opens the file chooser.
  const chooser = page.waitForEvent('filechooser');
  await form.getByRole('button', { name: 'Upload a photo' }).click();
  await (await chooser).setFiles({ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: photo });
  const preview = page.getByRole('region', { name: 'Profile Preview' });
  await expect(preview.getByRole('img')).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
  await expect(await register(page, { name: 'Photo Person', designation: 'B.Tech CSE', pin })).toHaveText(SAVED);

  // The portal serves its own copy (WebP, at most 640 px), on the profile card and the record.
  await page.goto('/welcome');
  const approved = page.getByRole('region', { name: 'Registered Profiles' });
  await approved.getByRole('textbox', { name: 'Filter profiles' }).fill(pin);
  const picture = approved.getByRole('img', { name: 'Profile image of student' });
  await expect(picture).toHaveAttribute('src', /^\/api\/registrations\/[0-9a-f-]+\/photo\?v=[0-9a-f]+$/);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await page.goto(`/faculty?pin=${pin}`);
  const record = page.getByRole('region', { name: /^Attendance record of / });
  await expect.poll(() => record.getByRole('img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);

  // Edit: remove the photo; the card falls back to the default avatar. Then clean up.
  await page.goto('/welcome');
  await approved.getByRole('textbox', { name: 'Filter profiles' }).fill(pin);
  await approved.getByRole('button', { name: 'Edit profile of Photo Person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit profile' });
  await dialog.getByRole('button', { name: 'Remove photo' }).click();
  await expect(dialog.getByText('The photo will be removed when you save.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(approved.getByRole('img', { name: 'Profile image of student' })).toHaveAttribute('src', '/default-avatar.svg');
  await approved.getByRole('button', { name: 'Delete profile of Photo Person' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(approved.getByRole('heading', { name: 'Photo Person' })).toHaveCount(0);
});
