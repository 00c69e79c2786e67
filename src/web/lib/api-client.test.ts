import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClassListSchema } from '../../shared/schemas/attendance';
import { api, ApiError, CONTRACT_MISMATCH_MESSAGE, ContractMismatchError, UNREACHABLE_MESSAGE } from './api-client';

function answer(status: number, body: string | null, type = 'application/json; charset=utf-8') {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: body === null ? {} : { 'content-type': type } })));
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

afterEach(() => vi.unstubAllGlobals());

describe('api', () => {
  it('returns an answer that matches the contract, as the schema parsed it', async () => {
    answer(200, JSON.stringify([{ name: 'CSE1', studentCount: 60, todayTaken: false, today: null, extra: 'dropped' }]));
    expect(await api.get('/api/classes', ClassListSchema)).toEqual([{ name: 'CSE1', studentCount: 60, todayTaken: false, today: null }]);
  });

  it('turns an answer that does not match the contract into an ApiError, not a crash', async () => {
    answer(200, JSON.stringify([{ name: 'CSE1', studentCount: 'sixty' }]));
    const error = await failure(api.get('/api/classes', ClassListSchema));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(ContractMismatchError);
    expect(error).toMatchObject({ status: 200, message: CONTRACT_MISMATCH_MESSAGE, endpoint: 'GET /api/classes' });
  });

  it('treats a page that is not JSON as a contract mismatch', async () => {
    answer(200, '<!doctype html><title>Portal</title>', 'text/html');
    expect(await failure(api.get('/api/classes', ClassListSchema))).toBeInstanceOf(ContractMismatchError);
  });

  it('carries the server’s message and field errors of a refusal', async () => {
    answer(400, JSON.stringify({ message: 'Invalid request', errors: [{ path: 'body.pin', message: 'Please enter a PIN number' }] }));
    const error = await failure(api.post('/api/registrations', {}, ClassListSchema));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ContractMismatchError);
    expect(error).toMatchObject({ status: 400, message: 'Invalid request', errors: [{ path: 'body.pin', message: 'Please enter a PIN number' }] });
  });

  it('names the status of a refusal whose body is not the error shape', async () => {
    answer(502, '<html>Bad gateway</html>', 'text/html');
    expect(await failure(api.get('/api/classes', ClassListSchema))).toMatchObject({ status: 502, message: 'Request failed (502)' });
  });

  it('says when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await failure(api.get('/api/classes', ClassListSchema))).toMatchObject({ status: 0, message: UNREACHABLE_MESSAGE });
  });

  it('answers a 204 with undefined, and refuses a body where none is expected', async () => {
    answer(204, null);
    await expect(api.delete('/api/registrations/1')).resolves.toBeUndefined();
    answer(200, JSON.stringify({ deleted: true }));
    expect(await failure(api.delete('/api/registrations/1'))).toBeInstanceOf(ContractMismatchError);
  });

  it('downloads a file of the expected type, and refuses another type', async () => {
    answer(200, '%PDF-1.7', 'application/pdf');
    const blob = await api.blob('/api/students/1/report.pdf', 'application/pdf');
    expect(await blob.text()).toBe('%PDF-1.7');

    answer(200, '<!doctype html>', 'text/html');
    expect(await failure(api.blob('/api/students/1/report.pdf', 'application/pdf'))).toBeInstanceOf(ContractMismatchError);

    answer(403, JSON.stringify({ message: 'Students can only see their own attendance and profile' }));
    expect(await failure(api.blob('/api/students/1/report.pdf', 'application/pdf'))).toMatchObject({
      status: 403,
      message: 'Students can only see their own attendance and profile',
    });
  });
});
