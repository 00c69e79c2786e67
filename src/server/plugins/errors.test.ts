import { describe, expect, it } from 'vitest';
import { withFacultyApp, type TestContext } from '../test/test-app';

let ctx: TestContext;
let faculty: string;
withFacultyApp((made) => ({ ctx, faculty } = made));

describe('requests PostgreSQL could not store get a 400, never a 500', () => {
  it('refuses the NUL character in a body, a path and a query, on public and faculty routes', async () => {
    const requests = [
      { method: 'POST' as const, url: '/api/contact', payload: { name: 'a\u0000', email: 'a@b.co', subject: 's', message: 'm' } },
      { method: 'POST' as const, url: '/api/registrations', payload: { name: 'a', designation: 'd', pin: 'P1', github: 'https://a.b/\u0000' } },
      { method: 'GET' as const, url: '/api/attendance/%00/2024-01-01', headers: { cookie: faculty } },
      { method: 'GET' as const, url: '/api/reports/dashboard?class=%00', headers: { cookie: faculty } },
    ];
    for (const request of requests) {
      const res = await ctx.app.inject(request);
      expect(res.statusCode, request.url).toBe(400);
      expect(res.json()).toEqual({ message: 'Text may not contain the NUL character' });
    }
  });

  it('answers router errors in the API error shape', async () => {
    const badEscape = await ctx.app.inject({ method: 'GET', url: '/api/attendance/%E0%A4%A/2024-01-01', headers: { cookie: faculty } });
    expect(badEscape.statusCode).toBe(400);
    expect(badEscape.json()).toEqual({ message: 'The address is not valid' });
    const longParam = await ctx.app.inject({ method: 'GET', url: `/api/students/${'P'.repeat(150)}`, headers: { cookie: faculty } });
    expect(longParam.statusCode).toBeLessThan(500);
    expect(Object.keys(longParam.json())).toEqual(['message']);
  });
});

describe('who may ask comes before what is asked', () => {
  it('a signed-out client gets 401 even with malformed parameters', async () => {
    for (const url of ['/api/attendance/CSE1/not-a-date', '/api/classes/NOPE/students', '/api/students/%20', '/api/reports/dashboard?class=NOPE']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
