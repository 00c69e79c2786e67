import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Dashboard } from '../src/shared/schemas/reports';
import { demoPin } from '../src/server/seed/demo';
import { expectAccessible, expect, signIn, test } from './fixtures';

const count = (value: number) => new Intl.NumberFormat('en').format(value);

async function readDashboard(page: Page): Promise<Dashboard> {
  const response = await page.request.get('/api/reports/dashboard');
  expect(response.ok()).toBe(true);
  return (await response.json()) as Dashboard;
}

/** The figure shown under one of the overview tiles. */
const tile = (page: Page, label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

const periodTable = (page: Page, title: string) =>
  page.getByRole('region', { name: title }).getByRole('table');

test('the faculty dashboard shows the demo figures, switches period and chart, and is accessible', async ({ page }) => {
  await signIn(page, 'faculty');
  await page.goto('/faculty-details');
  await expect(page.getByRole('heading', { level: 1, name: 'Faculty Dashboard' })).toBeVisible();
  const data = await readDashboard(page);
  expect(data.overallAttendance.total).toBeGreaterThan(0);

  // Overview tiles: the API's totals, the rate to 1 decimal.
  await expect(tile(page, 'Total Records')).toHaveText(count(data.overallAttendance.total));
  await expect(tile(page, 'Present')).toHaveText(count(data.overallAttendance.present));
  await expect(tile(page, 'Absent')).toHaveText(count(data.overallAttendance.absent));
  await expect(tile(page, 'Attendance Rate')).toHaveText(`${data.overallAttendance.presentPercentage.toFixed(1)}%`);

  // Weekly and pie by default; one table row per date, the rate to 2 decimals.
  await expect(page.getByRole('radio', { name: 'Weekly' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Pie' })).toBeChecked();
  const weekly = periodTable(page, 'Weekly Report');
  await expect(weekly.getByRole('columnheader')).toHaveText(['Date', 'Present', 'Absent', 'Total', 'Attendance Rate']);
  await expect(weekly.locator('tbody tr')).toHaveCount(data.weeklyReport.length);
  const lastWeek = data.weeklyReport.at(-1)!;
  await expect(weekly.locator('tbody tr').last().getByRole('cell')).toHaveText([
    count(lastWeek.present),
    count(lastWeek.absent),
    count(lastWeek.total),
    `${((lastWeek.present / lastWeek.total) * 100).toFixed(2)}%`,
  ]);
  // Charts are drawn as they come near the screen.
  await page.getByRole('region', { name: 'Weekly Report' }).locator('figure').scrollIntoViewIfNeeded();
  await expect(page.getByRole('region', { name: 'Weekly Report' }).locator('.recharts-pie')).toBeVisible();
  await expectAccessible(page);

  // Class-wise: a donut per class with its figures as text, and the table.
  const classWise = page.getByRole('region', { name: 'Class-wise Attendance' });
  await expect(classWise.getByRole('group')).toHaveCount(8);
  const cse1 = data.classWiseAttendance.find((row) => row.className === 'CSE1')!;
  const cse1Marks = cse1.presentCount + cse1.absentCount;
  await expect(classWise.getByRole('group', { name: 'CSE1 attendance' })).toContainText(
    `Present: ${count(cse1.presentCount)}/${count(cse1Marks)}`,
  );
  await expect(classWise.getByRole('group', { name: 'CSE1 attendance' })).toContainText(
    `Absent: ${count(cse1.absentCount)}/${count(cse1Marks)}`,
  );
  await expect(classWise.getByRole('table').getByRole('columnheader')).toHaveText([
    'Class',
    'Total Students',
    'Present',
    'Absent',
    'Present %',
    'Absent %',
  ]);
  await classWise.getByRole('combobox', { name: 'Class' }).click();
  await page.getByRole('option', { name: 'CSE3' }).click();
  await expect(classWise.getByRole('table').locator('tbody tr')).toHaveCount(1);
  await expect(classWise.getByRole('group')).toHaveCount(1);

  // Monthly and bar: the month's dates, stacked bars with a legend.
  await page.getByText('Monthly', { exact: true }).click();
  await page.getByText('Bar', { exact: true }).click();
  const monthly = periodTable(page, 'Monthly Report');
  await expect(monthly.locator('tbody tr')).toHaveCount(data.monthlyReport.length);
  const monthlyRegion = page.getByRole('region', { name: 'Monthly Report' });
  await monthlyRegion.locator('figure').scrollIntoViewIfNeeded();
  await expect(monthlyRegion.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(monthlyRegion.locator('.recharts-legend-wrapper')).toContainText('Present');
  await expect(monthlyRegion.locator('.recharts-legend-wrapper')).toContainText('Absent');
  await expectAccessible(page);

  // Students below 75%: lowest first, each PIN opens that student's record.
  const below = page.getByRole('region', { name: 'Students Below 75%' });
  const firstLink = below.getByRole('table').locator('tbody tr').first().getByRole('link');
  await expect(firstLink).toHaveAttribute('href', /^\/faculty-details\?pin=/);
  const percentages = await below.locator('tbody tr td:last-child').allTextContents();
  const values = percentages.map((text) => Number.parseFloat(text));
  expect(values.length).toBeGreaterThan(0);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  expect(values.every((value) => value < 75)).toBe(true);

  // A PIN from the list opens that student's record in the search on this page.
  const pin = (await firstLink.textContent())!.trim();
  await firstLink.click();
  await expect(page).toHaveURL(new RegExp(`/faculty-details\\?pin=${pin}$`));
  const search = page.getByRole('region', { name: 'Student Search' });
  await expect(search.getByRole('textbox', { name: 'PIN Number' })).toHaveValue(pin);
  await expect(search.getByRole('region', { name: /^Attendance record of / })).toBeVisible();
  await expect(search.getByRole('button', { name: 'Export to PDF' })).toBeVisible();
  await expectAccessible(page);

  // The weekly table downloads as CSV with the figures on screen.
  await page.getByText('Weekly', { exact: true }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the weekly report as CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`attendance-weekly-${data.today}.csv`);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
  expect(lines[0]).toBe('Date,Present,Absent,Total,Attendance Rate (%)');
  expect(lines).toHaveLength(data.weeklyReport.length + 1);
  expect(lines.at(-1)).toBe(
    `${lastWeek.date},${lastWeek.present},${lastWeek.absent},${lastWeek.total},${((lastWeek.present / lastWeek.total) * 100).toFixed(2)}`,
  );
});

test('the student search on the dashboard uses its own wording for a PIN that is not found', async ({ page }) => {
  await signIn(page, 'faculty');
  await page.goto('/faculty-details');
  const search = page.getByRole('region', { name: 'Student Search' });
  await search.getByRole('textbox', { name: 'PIN Number' }).fill('NO-SUCH-PIN');
  await search.getByRole('textbox', { name: 'PIN Number' }).press('Enter');
  await expect(search.getByText('No student records found for PIN: NO-SUCH-PIN')).toBeVisible();
  await expect(search.getByText('Please check the PIN and try again.')).toBeVisible();
  await search.getByRole('button', { name: 'Clear' }).click();
  await expect(search.getByRole('textbox', { name: 'PIN Number' })).toHaveValue('');
});

test('the dashboard updates without a reload when a register is saved in another tab', async ({ page, context }) => {
  await signIn(page, 'faculty');
  await page.goto('/faculty-details');
  await expect(page.locator('[data-live="live"]')).toBeVisible();
  const before = await readDashboard(page);
  await expect(tile(page, 'Total Records')).toHaveText(count(before.overallAttendance.total));
  // Marks the document: a reload would lose it.
  await page.evaluate(() => document.body.setAttribute('data-no-reload', 'yes'));

  const other = await context.newPage();
  const { date } = (await (await other.request.get('/api/attendance/today')).json()) as { date: string };
  const roster = (await (await other.request.get('/api/classes/CSE2/students')).json()) as { pin: string }[];
  const existing = (await (await other.request.get(`/api/attendance/CSE2/${date}`)).json()) as { submitted: boolean; stats: { total: number } };
  const saved = await other.request.put(`/api/attendance/CSE2/${date}`, {
    data: { records: roster.map((student) => ({ pin: student.pin, present: true })) },
  });
  expect(saved.ok()).toBe(true);
  const added = existing.submitted ? 0 : roster.length;

  await expect(tile(page, 'Total Records')).toHaveText(count(before.overallAttendance.total + added));
  await expect(periodTable(page, 'Weekly Report').locator('tbody tr').last().locator('time')).toHaveAttribute('datetime', date);
  expect(await page.evaluate(() => document.body.getAttribute('data-no-reload'))).toBe('yes');
  await other.close();
});

/**
 * The scripts the page has downloaded so far, and which of them hold code from `source` (read
 * from each script's source map: minified code names nothing).
 */
function downloadedScripts(page: Page): { holding: (source: RegExp) => Promise<string[]>; count: () => number } {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (/\/assets\/.*\.js$/.test(response.url())) scripts.push(response.url());
  });
  return {
    count: () => scripts.length,
    async holding(source) {
      const found: string[] = [];
      for (const url of scripts) {
        const map = await page.request.get(`${url}.map`);
        // A chunk the bundler writes without a map (its small runtime) has none to read.
        const isMap = map.ok() && (map.headers()['content-type'] ?? '').includes('json');
        const sources = isMap ? ((await map.json()) as { sources: string[] }).sources : [];
        if (sources.some((name) => source.test(name))) found.push(url);
      }
      return found;
    },
  };
}

const CHART_SOURCES = /node_modules\/(recharts|@mantine\/charts)\//;

test('the login page does not download the charts library; the dashboard does, after its figures', async ({ page }) => {
  const scripts = downloadedScripts(page);

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'University Portal' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.count()).toBeGreaterThan(0);
  expect(await scripts.holding(CHART_SOURCES)).toEqual([]);

  await signIn(page, 'faculty');
  await page.goto('/faculty-details');
  await expect(page.getByRole('region', { name: 'Weekly Report' })).toBeVisible();
  // The charts load after the figures: the weekly pie is drawn once it comes near the screen.
  await page.getByRole('region', { name: 'Weekly Report' }).locator('figure').scrollIntoViewIfNeeded();
  await expect(page.getByRole('region', { name: 'Weekly Report' }).locator('.recharts-pie')).toBeVisible();
  expect((await scripts.holding(CHART_SOURCES)).length).toBeGreaterThan(0);
});

test('the dashboard loads a student record\'s code only once a student is searched', async ({ page }) => {
  const RECORD_SOURCES = /student-record\/student-record-view\.tsx$|node_modules\/@mantine\/dates\//;
  await signIn(page, 'faculty');
  const scripts = downloadedScripts(page);
  await page.goto('/faculty-details');
  await expect(page.getByRole('region', { name: 'Weekly Report' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await scripts.holding(RECORD_SOURCES)).toEqual([]);

  const search = page.getByRole('region', { name: 'Student Search' });
  await search.getByRole('textbox', { name: 'PIN Number' }).fill(demoPin(0, 1));
  await search.getByRole('textbox', { name: 'PIN Number' }).press('Enter');
  const record = page.getByRole('region', { name: /^Attendance record of / });
  await expect(record.getByText(`PIN: ${demoPin(0, 1)}`)).toBeVisible();
  await expect(record.getByRole('table', { name: 'Attendance History' })).toBeVisible();
  expect((await scripts.holding(RECORD_SOURCES)).length).toBeGreaterThan(0);
});
