import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { TestContext } from './test-app';

/**
 * Checks the admins-only rule on one admin route: signed out 401, a faculty member and a student
 * 403 (with nothing changed: the request is refused before it is read), an admin not refused.
 * Returns the admin's answer for the caller's own checks.
 */
export async function expectAdminOnly(ctx: TestContext, request: InjectOptions) {
  const signedOut = await ctx.app.inject(request);
  expect(signedOut.statusCode, `${request.method} ${request.url} signed out`).toBe(401);
  for (const role of ['faculty', 'student'] as const) {
    const cookie = await ctx.signIn(role);
    const refused = await ctx.app.inject({ ...request, headers: { ...request.headers, cookie } });
    expect(refused.statusCode, `${request.method} ${request.url} as ${role}`).toBe(403);
  }
  const cookie = await ctx.signIn('admin');
  const answer = await ctx.app.inject({ ...request, headers: { ...request.headers, cookie } });
  expect([401, 403], `${request.method} ${request.url} as admin: ${answer.body}`).not.toContain(answer.statusCode);
  return answer;
}
