import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_ADMIN } from '../src/server/seed/demo';
import { expectAccessible, expect, signIn, test } from './fixtures';

/** A queued save as the register page keeps it in IndexedDB (src/web/lib/offline-store.ts). */
interface QueuedSave {
  id: string;
  class: string;
  date: string;
  period: number;
  body: { records: { pin: string; status: string }[]; markedAt: string; reason?: string };
  ifMatch: string;
}

/** The outbox as the page's IndexedDB holds it. */
async function outboxOf(page: Page): Promise<QueuedSave[]> {
  return page.evaluate(
    () =>
      new Promise<QueuedSave[]>((resolve, reject) => {
        const open = indexedDB.open('portal-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('outbox').objectStore('outbox').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            resolve(all.result as QueuedSave[]);
            open.result.close();
          };
        };
      }),
  );
}

function savePath(save: QueuedSave): string {
  return `/api/attendance/${save.class}/${save.date}${save.period > 0 ? `?period=${save.period}` : ''}`;
}

function historyPath(save: QueuedSave): string {
  return `/api/attendance/${save.class}/${save.date}/history${save.period > 0 ? `?period=${save.period}` : ''}`;
}

async function historyOf(request: APIRequestContext, save: QueuedSave): Promise<{ pin: string; newStatus: string; markedAt?: string; reason: string | null }[]> {
  const response = await request.get(historyPath(save));
  expect(response.ok()).toBe(true);
  return (await response.json()) as { pin: string; newStatus: string; markedAt?: string; reason: string | null }[];
}

/** Until the service worker controls the page: a reload without a connection is then answered by it. */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('a register taken offline is kept on the device, sent once when online, and a conflict is settled by the user', async ({ page, context, playwright, baseURL, consoleErrors }) => {
  test.setTimeout(180_000);
  await signIn(page, 'faculty');
  await page.goto('/attendance/CSE5');
  await expect(page.getByRole('heading', { name: /^CSE5 Attendance/ })).toBeVisible();
  const firstSwitch = page.getByRole('switch').first();
  await expect(firstSwitch).toBeVisible();
  // Taken online first (its save carries a key, the revision and markedAt too): the offline save then changes one mark.
  await page.getByRole('button', { name: 'Submit Attendance' }).click();
  await expect(page.getByText('Attendance submitted successfully!')).toBeVisible();
  await waitForServiceWorker(page);

  // Offline: the reload is the service worker's, the register the device's copy.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: /^CSE5 Attendance/ })).toBeVisible();
  const who = ((await firstSwitch.getAttribute('aria-label')) ?? '').replace(/^Present: /, '');
  await page.getByRole('button', { name: `Excused: ${who}` }).click();
  await page.getByRole('button', { name: 'Submit Attendance' }).click();
  await expect(page.getByText('Saved on this device; it will be sent when you are online').first()).toBeVisible();
  await expect(page.getByText('1 waiting')).toBeVisible();
  const [queued] = await outboxOf(page);
  expect(queued).toBeDefined();
  const pin = /\(([^)]+)\)$/.exec(who)![1]!;
  expect(queued!.body.records.find((record) => record.pin === pin)?.status).toBe('excused');

  // Reloaded offline: the kept register, with the marks of the save waiting laid over it.
  await page.reload();
  await expect(page.getByText('1 waiting')).toBeVisible();
  await expect(page.getByText(/^Shown with your marks saved on this device \(.*\), not sent yet\.$/)).toBeVisible();
  await expect(page.getByRole('button', { name: `Excused: ${who}` })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Unsaved changes')).toBeHidden();

  // Another page, still offline: the save is still waiting, and shown.
  await page.close();
  const second = await context.newPage();
  await second.goto('/attendance/CSE5');
  await expect(second.getByRole('heading', { name: /^CSE5 Attendance/ })).toBeVisible();
  await expect(second.getByText('1 waiting')).toBeVisible();
  await expect(second.getByRole('button', { name: `Excused: ${who}` })).toHaveAttribute('aria-pressed', 'true');

  // Online again: sent, once.
  await context.setOffline(false);
  await expect(second.getByText('1 waiting')).toBeHidden();
  expect(await outboxOf(second)).toEqual([]);
  const history = await historyOf(second.request, queued!);
  const markedAt = new Date(queued!.body.markedAt).getTime();
  expect(history.filter((change) => change.markedAt !== undefined && new Date(change.markedAt).getTime() === markedAt)).toEqual([
    expect.objectContaining({ pin, newStatus: 'excused' }),
  ]);

  // The same request again, twice (an answer lost on the way back): the kept answer, nothing saved.
  for (let time = 0; time < 2; time += 1) {
    const replay = await second.request.put(savePath(queued!), {
      headers: { 'idempotency-key': queued!.id, 'if-match': queued!.ifMatch },
      data: queued!.body,
    });
    expect(replay.status()).toBe(200);
    expect(replay.headers()['idempotent-replayed']).toBe('true');
  }
  expect(await historyOf(second.request, queued!)).toHaveLength(history.length);

  // A conflict: marked here offline while a colleague saves the same student otherwise.
  await second.reload();
  await expect(second.getByRole('button', { name: `Excused: ${who}` })).toHaveAttribute('aria-pressed', 'true');
  await context.setOffline(true);
  await second.getByRole('button', { name: `Late: ${who}` }).click();
  await second.getByRole('button', { name: 'Submit Attendance' }).click();
  await expect(second.getByText('1 waiting')).toBeVisible();

  const colleague = await playwright.request.newContext({ baseURL });
  const login = await colleague.post('/api/auth/login', { data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, role: 'faculty' } });
  expect(login.ok()).toBe(true);
  const register = (await (await colleague.get(savePath(queued!))).json()) as { records: { pin: string; status: string }[] };
  const saved = await colleague.put(savePath(queued!), {
    data: { records: register.records.map((record) => ({ pin: record.pin, status: record.pin === pin ? 'absent' : record.status })) },
  });
  expect(saved.ok()).toBe(true);
  await colleague.dispose();

  await context.setOffline(false);
  const chooser = second.getByRole('row').filter({ hasText: who });
  await expect(chooser.getByRole('radio', { name: `Saved: Absent, by ${DEMO_ADMIN.name}`, exact: false })).toBeVisible();
  await expectAccessible(second);
  await chooser.getByRole('radio', { name: 'Yours: Late' }).check();
  await second.getByRole('button', { name: 'Send again' }).click();
  await expect(second.getByText('Give a reason: your marks replace a colleague’s.')).toBeVisible();
  await second.getByRole('textbox', { name: /^Reason for sending your marks/ }).fill('Came in late, seen in the room');
  await second.getByRole('button', { name: 'Send again' }).click();
  await expect(chooser).toBeHidden();
  expect(await outboxOf(second)).toEqual([]);
  const [latest] = await historyOf(second.request, queued!);
  expect(latest).toMatchObject({ pin, newStatus: 'late', reason: 'Came in late, seen in the room' });

  // Signing out with a save waiting asks first, in the portal's dialog; staying keeps it.
  await context.setOffline(true);
  await second.getByRole('switch', { name: `Present: ${who}` }).click();
  await second.getByRole('button', { name: 'Submit Attendance' }).click();
  await expect(second.getByText('1 waiting')).toBeVisible();
  await second.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  const question = second.getByRole('dialog', { name: 'Sign out with saves waiting?' });
  await expect(question).toContainText('A register save has not reached the server yet. Signing out keeps it on this device');
  await expectAccessible(second);
  // From the keyboard: the focus is on staying, and Enter stays.
  await expect(question.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await second.keyboard.press('Enter');
  await expect(question).toBeHidden();
  await expect(second).toHaveURL(/\/attendance\/CSE5/);
  await expect(second.getByText('1 waiting')).toBeVisible();
  await context.setOffline(false);
  await expect(second.getByText('1 waiting')).toBeHidden();

  // The failed requests of the offline moments are the point of this journey, not errors.
  const rest = consoleErrors.filter((error) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(error));
  consoleErrors.splice(0, consoleErrors.length, ...rest);
});
