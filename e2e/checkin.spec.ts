import type { Browser, Locator, Route } from '@playwright/test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { DEMO_ADMIN, demoPin } from '../src/server/seed/demo';
import { expectAccessible, expect, signIn, test } from './fixtures';

const PHONE = { width: 390, height: 844 };
const PASSWORD = 'quiet harbour lanterns glow';

/** What the QR on the screen holds, read from a screenshot of it as a phone's camera would. */
async function readQr(qr: Locator): Promise<string> {
  await expect(qr.locator('svg')).toBeVisible();
  const { data, info } = await sharp(await qr.screenshot()).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  expect(found, 'a QR code in the screenshot').not.toBeNull();
  return found!.data;
}

/**
 * A student of CSE7 (a class no other journey takes a register of today) with an account of their
 * own: an admin makes it, its link sets the password.
 */
async function newStudentAccount(browser: Browser, baseURL: string, from: number): Promise<{ email: string; pin: string }> {
  const admin = await browser.newContext({ baseURL });
  const headers = { origin: baseURL, 'content-type': 'application/json' };
  const login = await admin.request.post('/api/auth/login', { headers, data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, role: 'faculty', remember: false } });
  expect(login.status()).toBe(200);
  // A PIN of CSE7's roster without an account yet (a retry on the same database takes the next).
  for (let serial = from; serial < from + 10; serial += 1) {
    const pin = demoPin(6, serial);
    const email = `checkin.${serial}.${Date.now()}@demo.university.edu`;
    const created = await admin.request.post('/api/admin/users', { headers, data: { email, name: `Check-in ${serial}`, role: 'student', pin } });
    if (created.status() !== 201) continue;
    const token = new URL((await created.json()).setPasswordUrl as string).hash.replace('#token=', '');
    expect((await admin.request.post('/api/auth/set-password', { headers, data: { token, password: PASSWORD } })).status()).toBe(204);
    await admin.close();
    return { email, pin };
  }
  throw new Error('No free PIN on the CSE7 roster');
}

test('faculty open a check-in from the register; students check in by the QR through the sign-in and by the code; closing refuses later scans', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  // Two PINs of their own: an admin may give a second account the PIN of a first.
  const first = await newStudentAccount(browser, baseURL!, 40);
  const second = await newStudentAccount(browser, baseURL!, 50);

  // Faculty open a check-in of today's register; the projector view shows the QR.
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, 'faculty');
  await page.goto('/attendance/CSE7');
  await page.getByRole('button', { name: 'Open check-in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a self check-in' });
  await expect(dialog.getByRole('textbox', { name: 'Open for (minutes)' })).toHaveValue('10');
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await page.waitForURL('**/checkin/*');
  await expect(page.getByRole('heading', { level: 1, name: /^CSE7/ })).toBeVisible();
  const qr = page.getByRole('img', { name: /QR code to check in/ });
  await expect(page.getByText('0 checked in')).toBeVisible();
  await expect(page.getByRole('timer')).toHaveText(/Closes in (10:00|9:\d\d)/);
  await expectAccessible(page);
  // The whole view fits a projector's screen, without scrolling.
  for (const size of [{ width: 1920, height: 1080 }, { width: 1366, height: 768 }]) {
    await page.setViewportSize(size);
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
  }
  const address = await readQr(qr);
  expect(address).toMatch(/\/c\/[\w.-]+$/);

  // From here the projector's own reads of the check-in wait unanswered: a student checked in can
  // reach its list only through the check-in's stream.
  const checkinRead = `**/api/checkins/${new URL(page.url()).pathname.split('/').pop()}`;
  const held: Route[] = [];
  let holding = true;
  await page.route(checkinRead, (route) => {
    if (holding && route.request().method() === 'GET') held.push(route);
    else void route.continue();
  });

  // A student opens the QR's address on their phone, signed out: they sign in and are checked in.
  const phone = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
  const student = await phone.newPage();
  await student.goto(address);
  await student.waitForURL('**/login?returnUrl=*');
  await student.getByRole('tab', { name: 'Student' }).click();
  const form = student.getByRole('form', { name: 'Student login' });
  await form.getByRole('textbox', { name: 'Email' }).fill(first.email);
  await form.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Login' }).click();
  await student.waitForURL('**/checkin-result?*');
  await expect(student.getByRole('status')).toContainText('You are checked in to CSE7');
  await expect(student.getByRole('status')).toContainText(': present');
  await expectAccessible(student);

  // The projector's list shows them, signed by their device (no flag), brought by the stream.
  const list = page.getByRole('table', { name: 'Students checked in' });
  await expect(list).toContainText(first.pin);
  await expect(page.getByText('1 checked in')).toBeVisible();
  // Signed by the device's key: no flag at all.
  await expect(list.locator('.mantine-Badge-root')).toHaveCount(0);
  // The projector asks for the code again: answered from now on.
  holding = false;
  for (const route of held) await route.continue();
  await page.unroute(checkinRead);

  // A second student types the code on their home page, on the first one's phone (signed out, its
  // device key kept): both check-ins are flagged, the device having checked in two students.
  await phone.clearCookies();
  const typist = await phone.newPage();
  await typist.goto('/login');
  await typist.getByRole('tab', { name: 'Student' }).click();
  const secondForm = typist.getByRole('form', { name: 'Student login' });
  await secondForm.getByRole('textbox', { name: 'Email' }).fill(second.email);
  await secondForm.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await secondForm.getByRole('button', { name: 'Login' }).click();
  await typist.waitForURL('**/faculty');
  const box = typist.getByRole('region', { name: 'Check in with a code' });
  const typedCode = ((await page.getByTestId('typed-code').textContent()) ?? '').replace('Code to type:', '').trim();
  expect(typedCode).toMatch(/^[A-Z2-7]{6}$/);
  await box.getByRole('textbox', { name: 'Code on the screen' }).fill(typedCode);
  await box.getByRole('button', { name: 'Check in' }).click();
  await expect(box.getByRole('status')).toContainText('You are checked in to CSE7');
  await expect(list).toContainText(second.pin);
  await expect(page.getByText('2 checked in')).toBeVisible();
  await expect(list.getByText('Shared device')).toHaveCount(2);
  await expectAccessible(page);

  // Closed: a later scan is refused, with the server's message.
  await page.getByRole('button', { name: 'Close check-in' }).click();
  await expect(page.getByText('Check-in closed')).toBeVisible();
  await box.getByRole('textbox', { name: 'Code on the screen' }).fill(typedCode);
  await box.getByRole('button', { name: 'Check in' }).click();
  await expect(box.getByRole('alert')).toContainText('No check-in is open for your class');

  // The register shows the two as checked in.
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page.getByText(/^Checked in \d\d:\d\d/)).toHaveCount(2);

  await phone.close();
});
