import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { TEST_IDP_CLIENT_ID, TEST_IDP_CLIENT_SECRET } from './oidc-client-settings';

/** An account at the test identity provider, with the claims it releases. */
export interface ProviderAccount {
  sub: string;
  email: string;
  email_verified?: boolean;
}

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Follows an authorization URL through the provider, signing in as `sub`; answers the callback URL it redirects to. */
  authorize(authorizationUrl: string, sub: string): Promise<URL>;
  /** From now on, ID tokens from the token endpoint have a changed payload (their signature no longer fits). */
  tamperWithIdTokens(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on a free port of this machine, for the tests:
 * one confidential client, the accounts given, and a sign-in page (`/interaction/:uid`) that
 * shows a form to a browser or signs in at once when asked with `?sub=`.
 */

export async function startTestIdentityProvider(options: {
  accounts: ProviderAccount[];
  redirectUris: string[];
  /** A fixed port, when the portal was told the issuer before the provider starts; else a free one. */
  port?: number;
}): Promise<TestIdentityProvider> {
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const clientId = TEST_IDP_CLIENT_ID;
  const clientSecret = TEST_IDP_CLIENT_SECRET;
  let tamper = false;

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris, response_types: ['code'], grant_types: ['authorization_code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['a-cookie-key-for-the-test-provider'] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: account.email,
          ...(account.email_verified === undefined ? {} : { email_verified: account.email_verified }),
        }),
      };
    },
    // No consent screen: the test client is trusted for the scopes it asks.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    const interaction = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    if (interaction) {
      const sub = url.searchParams.get('sub');
      if (!sub) {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><html lang="en"><title>Campus sign-in</title><main><h1>Campus sign-in</h1>` +
            `<form method="get"><label>Username <input name="sub" autocomplete="username"></label><button>Sign in</button></form></main></html>`,
        );
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      return;
    }
    if (tamper && url.pathname === '/token') {
      // Let the provider answer, then change the ID token's payload on its way out.
      const chunks: Buffer[] = [];
      const write = res.write.bind(res);
      const end = res.end.bind(res);
      res.write = ((chunk: Buffer | string) => {
        chunks.push(Buffer.from(chunk));
        return true;
      }) as typeof res.write;
      res.end = ((chunk?: Buffer | string) => {
        if (chunk) chunks.push(Buffer.from(chunk));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id_token?: string };
        if (body.id_token) {
          const [header, payload, signature] = body.id_token.split('.');
          const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
          claims.sub = 'someone-else';
          body.id_token = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
        }
        const text = JSON.stringify(body);
        res.setHeader('content-length', Buffer.byteLength(text));
        write(text);
        return end();
      }) as typeof res.end;
    }
    callback(req, res);
  }

  /** Cookies of the provider, kept between the redirects of one authorization. */
  async function authorize(authorizationUrl: string, sub: string): Promise<URL> {
    const jar = new Map<string, string>();
    let next = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop += 1) {
      if (next.origin !== issuer) return next;
      if (/^\/interaction\//.test(next.pathname)) next.searchParams.set('sub', sub);
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const [name, ...value] = pair!.split('=');
        jar.set(name!.trim(), value.join('='));
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
      next = new URL(location, next);
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    authorize,
    tamperWithIdTokens: (on) => {
      tamper = on;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
