import { describe, expect, it } from 'vitest';
import { type ClassAttendance, type Dashboard, DashboardSchema } from '../../../shared/schemas/reports';
import { toClassAttendance } from '../../../shared/report-rules';
import { responseSerializerCompiler } from '../../plugins/response-serializer';
import { dashboardJson } from './dashboard-json';

/** The dashboard route's own serializer. */
const serialize = responseSerializerCompiler({ schema: DashboardSchema, method: 'GET', url: '/api/reports/dashboard', httpStatus: '200' }) as (
  body: unknown,
) => string;

const row = (className: string, present: number, absent: number): ClassAttendance => toClassAttendance({ className, totalStudents: 60, present, absent });

const dashboard = (classWiseAttendance: ClassAttendance[]): Dashboard => ({
  overallAttendance: { present: 10, absent: 5, total: 15, presentPercentage: 66.67, absentPercentage: 33.33 },
  classWiseAttendance,
  weeklyReport: [{ date: '2026-11-27', present: 10, absent: 5, total: 15 }],
  monthlyReport: [{ date: '2026-11-27', present: 10, absent: 5, total: 15 }],
  today: '2026-11-29',
  // A name with the class table's key in it: only the key itself is filled.
  term: { id: 't1', name: 'Autumn "classWiseAttendance":[] 2026', startsOn: '2026-07-27', endsOn: '2026-11-27' },
});

describe("the dashboard's JSON", () => {
  it("is the route serializer's, byte for byte, with rows kept from one answer to the next", () => {
    const kept = [row('CSE1', 40, 20), row('CSE2', 50, 10)];
    expect(dashboardJson(dashboard(kept), serialize)).toBe(serialize(dashboard(kept)));
    // The next answer: CSE2 saved (a new row), CSE1 kept.
    const next = [kept[0]!, row('CSE2', 51, 10), row('ECE1', 0, 0)];
    expect(dashboardJson(dashboard(next), serialize)).toBe(serialize(dashboard(next)));
    expect(dashboardJson(dashboard([]), serialize)).toBe(serialize(dashboard([])));
  });

  it('refuses a row its schema refuses, as the serializer does', () => {
    const broken = { ...row('CSE1', 40, 20), presentCount: 1.5 };
    expect(() => serialize(dashboard([broken]))).toThrow();
    expect(() => dashboardJson(dashboard([broken]), serialize)).toThrow();
  });
});
