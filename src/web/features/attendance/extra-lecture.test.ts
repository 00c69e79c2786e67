import { describe, expect, it } from 'vitest';
import type { DayPeriod } from '../../../shared/schemas/attendance';
import { i18n } from '../../i18n/i18n';
import { extraLecturePeriods, firstFreePeriod, hasWholeDayRegister, saveRefusal, withExtraLecture } from './extra-lecture';

const DS = { code: 'DS', name: 'Data Structures' };
const OS = { code: 'OS', name: 'Operating Systems' };
const MATH = { code: 'MATH', name: 'Mathematics' };
const stats = { total: 2, present: 2, absent: 0, late: 0, excused: 0 };
// Period 1 taken, period 2 on the timetable and not taken yet.
const DAY: DayPeriod[] = [
  { period: 1, subject: DS, submitted: true, stats },
  { period: 2, subject: OS, submitted: false, stats: null },
];

describe('extraLecturePeriods', () => {
  it('offers every period but those taken, saying which the timetable gives a subject', () => {
    const options = extraLecturePeriods(DAY, i18n);
    expect(options.map((option) => option.value)).toEqual(['2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
    expect(options[0]).toEqual({ value: '2', label: 'Period 2 (Operating Systems on the timetable)' });
    expect(options[1]).toEqual({ value: '3', label: 'Period 3' });
  });

  it('first offers a period the day does not hold at all', () => {
    expect(firstFreePeriod(DAY)).toBe('3');
    expect(firstFreePeriod([])).toBe('1');
    const full = Array.from({ length: 12 }, (_, index) => ({ period: index + 1, subject: DS, submitted: true, stats }));
    expect(firstFreePeriod(full)).toBeNull();
  });
});

describe('withExtraLecture', () => {
  it('adds the lecture being taken to the day, in period order, or puts its subject in a timetabled period', () => {
    expect(withExtraLecture(DAY, 5, MATH).map((entry) => [entry.period, entry.subject?.code, entry.submitted])).toEqual([
      [1, 'DS', true],
      [2, 'OS', false],
      [5, 'MATH', false],
    ]);
    expect(withExtraLecture(DAY, 2, MATH).map((entry) => entry.subject?.code)).toEqual(['DS', 'MATH']);
  });

  it('leaves the day as it is without an extra lecture, or once its period is taken', () => {
    expect(withExtraLecture(DAY, 5, null)).toEqual(DAY);
    expect(withExtraLecture(DAY, 1, MATH)).toEqual(DAY);
    expect(withExtraLecture(DAY, 0, MATH)).toEqual(DAY);
  });
});

describe('the whole-day rule', () => {
  it('knows a day with a whole-day register taken', () => {
    expect(hasWholeDayRegister([{ period: 0, subject: null, submitted: true, stats }])).toBe(true);
    expect(hasWholeDayRegister(DAY)).toBe(false);
  });

  it('says the server\'s Choose a period in full, and other refusals as they are', () => {
    expect(saveRefusal('Choose a period', 3, i18n)).toBe(
      'Choose a period. This date already has a whole-day register, and a date has either a whole-day register or lectures, never both.',
    );
    expect(saveRefusal('Choose a period', 0, i18n)).toBe('Choose a period. This date already has lectures: take the register of one of them.');
    expect(saveRefusal('Class CSE1 is archived', 3, i18n)).toBe('Class CSE1 is archived');
  });
});
