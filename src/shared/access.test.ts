import { describe, expect, it } from 'vitest';
import {
  canAdminister,
  canEditProfile,
  canManageProfiles,
  canReadInbox,
  canSeeStudent,
  canTakeRegisters,
  homePathFor,
  isStaff,
  loginTabFor,
} from './access';

const faculty = { role: 'faculty' as const };
const admin = { role: 'admin' as const };
const student = { role: 'student' as const, pin: '23A51A05301' };

describe('who may see what', () => {
  it('staff are faculty and administrators, never students or nobody', () => {
    expect(isStaff(faculty)).toBe(true);
    expect(isStaff(admin)).toBe(true);
    expect(isStaff(student)).toBe(false);
    expect(isStaff(null)).toBe(false);
    expect(isStaff(undefined)).toBe(false);
  });

  it('administration is for admins only', () => {
    expect(canAdminister(admin)).toBe(true);
    expect(canAdminister(faculty)).toBe(false);
    expect(canAdminister(student)).toBe(false);
    expect(canAdminister(null)).toBe(false);
  });

  it('staff see any student; a student only their own PIN', () => {
    expect(canSeeStudent(faculty, '23A51A05301')).toBe(true);
    expect(canSeeStudent(admin, 'ANY')).toBe(true);
    expect(canSeeStudent(student, '23A51A05301')).toBe(true);
    expect(canSeeStudent(student, '23A51A05302')).toBe(false);
    expect(canSeeStudent({ role: 'student' }, '23A51A05301')).toBe(false);
  });

  it('registers, reports, the inbox and reviewing profiles are for staff only', () => {
    for (const rule of [canTakeRegisters, canManageProfiles, canReadInbox]) {
      expect(rule(faculty)).toBe(true);
      expect(rule(admin)).toBe(true);
      expect(rule(student)).toBe(false);
      expect(rule(null)).toBe(false);
    }
  });

  it('staff edit any profile; a student only the one on their own PIN', () => {
    expect(canEditProfile(faculty, 'ANY')).toBe(true);
    expect(canEditProfile(student, '23A51A05301')).toBe(true);
    expect(canEditProfile(student, '23A51A05302')).toBe(false);
  });

  it('an administrator signs in on the Faculty tab and lands where faculty land', () => {
    expect(loginTabFor('admin')).toBe('faculty');
    expect(loginTabFor('faculty')).toBe('faculty');
    expect(loginTabFor('student')).toBe('student');
    expect(homePathFor('student')).toBe('/faculty');
    expect(homePathFor('faculty')).toBe('/dashboard');
    expect(homePathFor('admin')).toBe('/dashboard');
  });
});
