import { describe, expect, it } from 'vitest';
import { CurrentUserResponseSchema, LoginResponseSchema, SignedInResponseSchema, SignInOptionsSchema } from './schemas/auth';
import { BrandingSchema } from './schemas/branding';
import { BrandingAnswer, CurrentUserAnswer, LoginAnswer, SignedInAnswer, SignInOptionsAnswer } from './sign-in-answers';

const user = { id: 'u1', email: 'a@b.edu', name: 'Ada', role: 'faculty' };
const student = { ...user, role: 'student', pin: '23B81A0101', extra: 'dropped' };

const userish = [
  user,
  student,
  { ...user, role: 'admin' },
  { ...user, role: 'dean' },
  { ...user, id: 7 },
  { ...user, pin: null },
  { ...user, name: undefined },
  null,
  'user',
  [],
];

/** Each plain check must accept exactly what its schema accepts, and give the same value. */
const cases = [
  {
    name: 'the signed-in user',
    schema: CurrentUserResponseSchema,
    check: CurrentUserAnswer,
    samples: [...userish.map((value) => ({ user: value })), { user: null, totpSetupRequired: true }, { user, totpSetupRequired: 'yes' }, {}, null, '<html>'],
  },
  {
    name: 'a sign-in',
    schema: LoginResponseSchema,
    check: LoginAnswer,
    samples: [
      ...userish.map((value) => ({ user: value })),
      { user, totpSetupRequired: true },
      { totpRequired: true },
      { totpRequired: false },
      { totpRequired: true, user },
      { totpRequired: true, user: 'nobody' },
      {},
      [],
    ],
  },
  {
    name: 'a second step',
    schema: SignedInResponseSchema,
    check: SignedInAnswer,
    samples: [...userish.map((value) => ({ user: value })), { user, totpSetupRequired: false }, { totpRequired: true }, 42],
  },
  {
    name: 'the sign-in options',
    schema: SignInOptionsSchema,
    check: SignInOptionsAnswer,
    samples: [
      { passwordLogin: true, sso: null },
      { passwordLogin: false, sso: { name: 'Campus', other: 1 } },
      { passwordLogin: true, sso: { name: 3 } },
      { passwordLogin: true },
      { passwordLogin: 'yes', sso: null },
      { passwordLogin: true, sso: [] },
    ],
  },
  {
    name: 'the branding',
    schema: BrandingSchema,
    check: BrandingAnswer,
    samples: [
      { name: null, color: null, logoUrl: null },
      { name: 'Riverside', color: '#1d4f91', logoUrl: '/api/branding/logo', more: true },
      { name: 'Riverside', color: null },
      { name: 1, color: null, logoUrl: null },
      'Riverside',
    ],
  },
];

describe('the sign-in page’s plain checks', () => {
  for (const { name, schema, check, samples } of cases) {
    it(`read ${name} as the contract's schema does`, () => {
      for (const sample of samples) {
        const expected = schema.safeParse(sample);
        const actual = check.safeParse(sample);
        expect(actual.success, JSON.stringify(sample)).toBe(expected.success);
        if (expected.success && actual.success) expect(actual.data, JSON.stringify(sample)).toEqual(expected.data);
      }
    });
  }
});
