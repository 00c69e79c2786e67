import { describe, expect, it } from 'vitest';
import { LoginRequestSchema } from './auth';

describe('LoginRequestSchema', () => {
  it('accepts a well-formed request and trims the email', () => {
    const parsed = LoginRequestSchema.parse({
      email: '  a.b@uni.edu ',
      password: 'x',
      role: 'faculty',
      remember: true,
    });
    expect(parsed.email).toBe('a.b@uni.edu');
  });
  it('uses the specification wording for a bad email and a missing password', () => {
    const result = LoginRequestSchema.safeParse({ email: 'nope', password: '', role: 'student' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => issue.message);
    expect(messages).toContain('Please enter a valid email address');
    expect(messages).toContain('Password is required');
  });
  it('refuses an admin tab: only faculty and student log in by tab', () => {
    expect(LoginRequestSchema.safeParse({ email: 'a@b.co', password: 'x', role: 'admin' }).success).toBe(
      false,
    );
  });
});
