import { describe, expect, it } from 'vitest';
import { ProfileUpdateRequestSchema, REQUIRED_FIELDS_MESSAGE, RegistrationRequestSchema } from './profiles';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('RegistrationRequestSchema', () => {
  it('trims, turns empty optional fields into null and leaves missing ones out', () => {
    const parsed = RegistrationRequestSchema.parse({
      name: ' Ravi ',
      designation: 'CSE ',
      pin: ' 21A91A0501 ',
      imageUrl: '',
      imageAlt: '  ',
      github: ' https://github.com/ravi ',
    });
    expect(parsed).toEqual({
      name: 'Ravi',
      designation: 'CSE',
      pin: '21A91A0501',
      imageUrl: null,
      imageAlt: null,
      github: 'https://github.com/ravi',
    });
  });

  it('gives the one specification message for any missing required field', () => {
    for (const body of [{}, { name: 'A', designation: 'B' }, { name: ' ', designation: 'B', pin: 'P' }, null]) {
      expect(firstMessage(RegistrationRequestSchema.safeParse(body))).toBe(REQUIRED_FIELDS_MESSAGE);
    }
  });

  it('names the field of a link that is not http(s)', () => {
    const result = RegistrationRequestSchema.safeParse({ name: 'A', designation: 'B', pin: 'P', leetcode: 'javascript:alert(1)' });
    expect(firstMessage(result)).toBe('LeetCode URL must be a link starting with http:// or https://');
  });
});

describe('ProfileUpdateRequestSchema', () => {
  it('tells "not sent" (undefined) from "cleared" (null)', () => {
    expect(ProfileUpdateRequestSchema.parse({ github: '', name: ' New ' })).toEqual({
      name: 'New',
      github: null,
      imageUrl: undefined,
      imageAlt: undefined,
      linkedin: undefined,
      leetcode: undefined,
      resume: undefined,
      portfolio: undefined,
    });
  });
});
