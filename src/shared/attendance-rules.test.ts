import { describe, expect, it } from 'vitest';
import {
  absentBand,
  attendanceBand,
  countMarks,
  formatPercent,
  isPresentMark,
  percentage,
  summarize,
  summaryStatus,
} from './attendance-rules';

describe('isPresentMark', () => {
  it('reads every status form of the specification', () => {
    expect(isPresentMark({ present: true })).toBe(true);
    expect(isPresentMark({ present: 'Present' })).toBe(true);
    expect(isPresentMark({ status: 'Present' })).toBe(true);
    expect(isPresentMark({ present: false })).toBe(false);
    expect(isPresentMark({ present: 'Absent' })).toBe(false);
    expect(isPresentMark({ status: 'Absent' })).toBe(false);
    expect(isPresentMark({ present: 'present' })).toBe(false);
    expect(isPresentMark({})).toBe(false);
  });
  it('counts a mixed list', () => {
    expect(countMarks([{ present: true }, { status: 'Present' }, { present: 'Absent' }])).toEqual({
      present: 2,
      absent: 1,
    });
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
