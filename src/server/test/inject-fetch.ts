import type { FastifyInstance } from 'fastify';
import { TEST_PASSWORD } from './test-app';

type InjectMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/**
 * A `fetch` that hands each request to the real app through `app.inject()` and keeps its cookies,
 * so component tests exercise the real API and database without opening a port.
 */
export function createInjectFetch(app: FastifyInstance): typeof fetch {
  const jar = new Map<string, string>();
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const path = url.startsWith('http') ? new URL(url).pathname + new URL(url).search : url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await app.inject({
      method: (init?.method ?? 'GET') as InjectMethod,
      url: path,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    for (const cookie of response.cookies) {
      if (cookie.value === '') jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    const outHeaders = new Headers();
    for (const [key, value] of Object.entries(response.headers)) {
      if (value === undefined || key === 'set-cookie') continue;
      outHeaders.set(key, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const nullBody = response.statusCode === 204 || response.statusCode === 304;
    return new Response(nullBody ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: outHeaders });
  };
}

/** Signs in through `fetchFn` as the login form does; its cookie jar then holds the session. */
export async function signInThroughFetch(
  fetchFn: typeof fetch,
  email: string,
  role: 'faculty' | 'student',
  password = TEST_PASSWORD,
): Promise<void> {
  const response = await fetchFn('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, role, remember: false }),
  });
  if (!response.ok) throw new Error(`sign-in as ${email} failed: ${response.status}`);
}
