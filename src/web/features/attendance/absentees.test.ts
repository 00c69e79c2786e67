import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { absenteeEndings, absenteeProblems, parseAbsentees } from './absentees';

const PINS = ['23A51A0501', '23A51A0502', '23A51A0512', '23A51A0523', '23A51A0530', '24B11X0007'];

describe('absenteeEndings', () => {
  it('splits on spaces, commas, semicolons and line breaks, ignoring empty pieces', () => {
    expect(absenteeEndings(' 01, 12 ;23\n\t30,, ')).toEqual(['01', '12', '23', '30']);
    expect(absenteeEndings('   ')).toEqual([]);
  });
});

describe('parseAbsentees', () => {
  it('names the students whose PINs end with each ending, once each, in the register order', () => {
    expect(parseAbsentees('30 01, 30 x0007', PINS)).toEqual({ absent: ['23A51A0501', '23A51A0530', '24B11X0007'], unknown: [], ambiguous: [] });
  });

  it('reports endings that fit no PIN, as typed', () => {
    const entry = parseAbsentees('01 99 zz', PINS);
    expect(entry.absent).toEqual(['23A51A0501']);
    expect(entry.unknown).toEqual(['99', 'zz']);
    expect(absenteeProblems(entry, i18n)).toEqual(['No PIN in this class ends in 99 and zz.']);
  });

  it('refuses an ending that fits several PINs, naming them', () => {
    const entry = parseAbsentees('2, 30', PINS);
    expect(entry.ambiguous).toEqual([{ ending: '2', pins: ['23A51A0502', '23A51A0512'] }]);
    expect(entry.absent).toEqual(['23A51A0530']);
    expect(absenteeProblems(entry, i18n)).toEqual(['2 fits 2 PINs (23A51A0502 and 23A51A0512): type more of the PIN.']);
  });

  it('takes a whole PIN even where it is also the end of a longer one', () => {
    expect(parseAbsentees('0502', ['0502', '10502']).absent).toEqual(['0502']);
  });

  it('has nothing to report for an empty box', () => {
    const entry = parseAbsentees('', PINS);
    expect(entry).toEqual({ absent: [], unknown: [], ambiguous: [] });
    expect(absenteeProblems(entry, i18n)).toEqual([]);
  });
});

describe('the problems in another language', () => {
  it('are said whole in Hindi and Telugu, with the endings and PINs as typed', async () => {
    const { messages: hindi } = await import('../../i18n/catalogs/hi');
    const { messages: telugu } = await import('../../i18n/catalogs/te');
    const entry = parseAbsentees('99 zz 2', PINS);
    expect(absenteeProblems(entry, setupI18n({ locale: 'hi', messages: { hi: hindi } }))).toEqual([
      'इस कक्षा का कोई PIN 99 और zz पर समाप्त नहीं होता।',
      '2 2 PIN से मेल खाता है (23A51A0502 और 23A51A0512): PIN का और हिस्सा टाइप करें।',
    ]);
    expect(absenteeProblems(entry, setupI18n({ locale: 'te', messages: { te: telugu } }))).toEqual([
      'ఈ తరగతిలో ఏ PIN కూడా 99 మరియు zzతో ముగియదు.',
      '2 2 PINలకు సరిపోతుంది (23A51A0502 మరియు 23A51A0512): PINలో మరికొంత టైప్ చేయండి.',
    ]);
  });
});
