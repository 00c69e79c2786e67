import { describe, expect, it } from 'vitest';
import {
  absentBand,
  attendanceBand,
  attendanceForecast,
  addCounts,
  attends,
  countMarks,
  countStatuses,
  isHeld,
  MARK_STATUSES,
  NO_MARKS,
  statusOf,
  summarizeCounts,
  formatPercent,
  percentage,
  summarize,
  summaryStatus,
} from './attendance-rules';

describe('countMarks', () => {
  it('counts the totals of a register', () => {
    expect(countMarks([{ status: 'present' }, { status: 'present' }, { status: 'absent' }])).toEqual({
      total: 3,
      present: 2,
      absent: 1,
      late: 0,
      excused: 0,
    });
    expect(countMarks([])).toEqual({ total: 0, present: 0, absent: 0, late: 0, excused: 0 });
  });
});

describe('attendanceForecast', () => {
  it('says nothing before any mark, then what can be missed or must be attended', () => {
    expect(attendanceForecast(summarize(0, 0))).toBeNull();
    expect(attendanceForecast(summarize(2, 1))).toBe('Attending the next 1 class in a row brings attendance back to 75%.');
    expect(attendanceForecast(summarize(3, 1))).toBe('Missing the next class would take attendance below 75%.');
    expect(attendanceForecast(summarize(8, 0))).toBe('2 more classes can be missed while staying at or above 75%.');
  });
});

describe('summaries', () => {
  it('gives zeros for a student with no days', () => {
    const s = summarize(0, 0);
    expect(s).toMatchObject({ totalDays: 0, percentage: 0, status: 'Low', canMiss: 0, needToAttend: 0 });
  });
  it('is Good at exactly 75.0 and Low just under', () => {
    expect(summarize(3, 1)).toMatchObject({ percentage: 75, status: 'Good', canMiss: 0, needToAttend: 0 });
    expect(summaryStatus(74.99)).toBe('Low');
  });
  it('says how many classes can be missed or must be attended', () => {
    // 9 of 10: missing 2 more gives 9/12 = 75%, a third would give 69%.
    expect(summarize(9, 1).canMiss).toBe(2);
    // 5 of 10: 5 more presents give 10/15 = 66.7%, it takes 10 to reach 15/20 = 75%.
    expect(summarize(5, 5).needToAttend).toBe(10);
    expect(summarize(5, 5).canMiss).toBe(0);
  });
  it('computes percentages safely', () => {
    expect(percentage(1, 3)).toBeCloseTo(33.333, 2);
    expect(percentage(5, 0)).toBe(0);
    expect(formatPercent(33.3333, 1)).toBe('33.3%');
    expect(formatPercent(33.3333, 2)).toBe('33.33%');
    expect(formatPercent(66.6, 0)).toBe('67%');
  });
});

describe('bands', () => {
  it('bands attendance at 75 and 50', () => {
    expect(attendanceBand(75)).toBe('good');
    expect(attendanceBand(74.9)).toBe('warning');
    expect(attendanceBand(50)).toBe('warning');
    expect(attendanceBand(49.9)).toBe('danger');
  });
  it('bands absence at 25 and 10', () => {
    expect(absentBand(25)).toBe('danger');
    expect(absentBand(24.9)).toBe('warning');
    expect(absentBand(10)).toBe('warning');
    expect(absentBand(9.9)).toBe('good');
  });
});

describe('the counting rule of lecture-wise attendance', () => {
  it('present and late attend, absent does not, excused is left out of the held classes', () => {
    expect(MARK_STATUSES.filter(attends)).toEqual(['present', 'late']);
    expect(MARK_STATUSES.filter(isHeld)).toEqual(['present', 'absent', 'late']);
    expect(statusOf(true)).toBe('present');
    expect(statusOf(false)).toBe('absent');
  });

  it('a summary counts present and late as present days, absent as absent days, and excused in neither', () => {
    const counts = countStatuses([{ status: 'present' }, { status: 'late' }, { status: 'absent' }, { status: 'excused' }, { status: 'excused' }]);
    expect(counts).toEqual({ present: 1, late: 1, absent: 1, excused: 2 });
    expect(summarizeCounts(counts)).toMatchObject({ totalDays: 3, presentDays: 2, absentDays: 1 });
    // Excused marks change nothing: the same figures as without them.
    expect(summarizeCounts(counts)).toEqual(summarize(2, 1));
  });

  it('forecasts per subject by the summary\'s own rule', () => {
    // 3 lectures attended (one late) of 4 held, one excused: exactly 75%, nothing to spare.
    const subject = summarizeCounts({ present: 2, late: 1, absent: 1, excused: 1 });
    expect(subject).toMatchObject({ percentage: 75, status: 'Good', canMiss: 0 });
    expect(attendanceForecast(subject)).toBe('Missing the next class would take attendance below 75%.');
    // 1 of 3: two more in a row bring it to 75%.
    const low = summarizeCounts(addCounts({ ...NO_MARKS, late: 1 }, { ...NO_MARKS, absent: 2, excused: 4 }));
    expect(low).toMatchObject({ totalDays: 3, status: 'Low', needToAttend: 5 });
  });
});

