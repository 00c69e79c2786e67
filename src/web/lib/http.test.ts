import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, askEarly, EARLY_ANSWER_MS, request, type AnswerCheck } from './http';

const anything: AnswerCheck<unknown> = { safeParse: (value) => ({ success: true, data: value }) };

/** A fetch that answers each call with the next of `bodies` (status 200), or with `status` and a message. */
function answers(...replies: ({ status: number; body: unknown } | unknown)[]) {
  const fetch = vi.fn(async () => {
    const next = replies.shift();
    const { status, body } =
      typeof next === 'object' && next !== null && 'status' in next ? (next as { status: number; body: unknown }) : { status: 200, body: next };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => {
  vi.advanceTimersByTime(EARLY_ANSWER_MS); // what a test left untaken is dropped
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('answers asked for early (the page’s first data, beside its code)', () => {
  it('are taken by the first request of the same path, which then asks nothing itself', async () => {
    const fetch = answers({ figures: 1 }, { figures: 2 });
    askEarly('/api/reports/dashboard');
    askEarly('/api/reports/dashboard'); // asked once, however often the start asks
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await request('GET', '/api/reports/dashboard', undefined, anything)).toEqual({ figures: 1 });
    expect(fetch).toHaveBeenCalledTimes(1);
    // Taken once: the next request asks the server.
    expect(await request('GET', '/api/reports/dashboard', undefined, anything)).toEqual({ figures: 2 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('are not taken by another path, nor by a change to the same path', async () => {
    const fetch = answers({ early: true }, { other: true }, { saved: true });
    askEarly('/api/reports/dashboard');
    expect(await request('GET', '/api/reports/dashboard?term=all', undefined, anything)).toEqual({ other: true });
    expect(await request('POST', '/api/reports/dashboard', {}, anything)).toEqual({ saved: true });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('are asked again when the early one was refused (signed out then, say)', async () => {
    const fetch = answers({ status: 401, body: { message: 'Not signed in' } }, { figures: 1 });
    askEarly('/api/reports/dashboard');
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(await request('GET', '/api/reports/dashboard', undefined, anything)).toEqual({ figures: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('are asked again when the early one fails while the page waits for it', async () => {
    let fail: (reason: unknown) => void = () => undefined;
    const fetch = vi
      .fn()
      .mockImplementationOnce(() => new Promise((_resolve, reject) => (fail = reject)))
      .mockImplementationOnce(async () => new Response(JSON.stringify({ figures: 1 }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    askEarly('/api/reports/dashboard');
    const asked = request('GET', '/api/reports/dashboard', undefined, anything);
    fail(new TypeError('Failed to fetch'));
    expect(await asked).toEqual({ figures: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('are dropped when no page takes them in time', async () => {
    const fetch = answers({ figures: 'old' }, { figures: 'new' });
    askEarly('/api/reports/dashboard');
    vi.advanceTimersByTime(EARLY_ANSWER_MS);
    expect(await request('GET', '/api/reports/dashboard', undefined, anything)).toEqual({ figures: 'new' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('still give a refusal of the page’s own request as an ApiError', async () => {
    answers({ status: 403, body: { message: 'This page is for faculty only' } });
    // With the body as read, for refusals that say more than a message (a register's 412).
    await expect(request('GET', '/api/reports/dashboard', undefined, anything)).rejects.toEqual(
      new ApiError(403, 'This page is for faculty only', undefined, undefined, { message: 'This page is for faculty only' }),
    );
  });
});
