import { randomBytes } from 'node:crypto';
import type * as OpenIdClient from 'openid-client';
import type { Configuration } from 'openid-client';
import type { LoginRole } from '../../../shared/constants';
import type { OidcErrorReason } from '../../../shared/schemas/auth';
import { safeReturnUrl } from '../../../shared/redirect';
import type { OidcSettings } from '../../config';
import type { Executor } from '../../db/client';
import * as repo from './repository';
import { hashToken } from './service';

/** The `portal_oidc` cookie ties a callback to the browser that started the sign-in: ten minutes. */
export const OIDC_COOKIE = 'portal_oidc';
export const OIDC_LOGIN_MS = 10 * 60 * 1000;
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

/**
 * Why a single sign-on failed; the sign-in page says it in words (`OIDC_ERROR_MESSAGES` in
 * shared/schemas/auth.ts). Every failure ends on /login with no session.
 */
export type OidcFailure = OidcErrorReason;

export class OidcError extends Error {
  constructor(readonly reason: OidcFailure, detail?: string) {
    super(detail ?? reason);
    this.name = 'OidcError';
  }
}

type Client = typeof OpenIdClient;

/**
 * The identity provider, discovered from its issuer on first use (and again after a failure):
 * the library is loaded only when single sign-on is used.
 */
export class OidcProvider {
  private discovered: Promise<{ lib: Client; config: Configuration }> | undefined;

  constructor(readonly settings: OidcSettings) {}

  async connect(): Promise<{ lib: Client; config: Configuration }> {
    this.discovered ??= (async () => {
      const lib = await import('openid-client');
      const issuer = new URL(this.settings.issuer);
      // http is for a provider on this machine only (tests, a local Keycloak); config.ts refuses it elsewhere.
      const options = issuer.protocol === 'http:' ? { execute: [lib.allowInsecureRequests] } : undefined;
      const config = await lib.discovery(issuer, this.settings.clientId, this.settings.clientSecret, undefined, options);
      // openid-client does not check an ID token's signature from the token endpoint unless told to.
      lib.enableNonRepudiationChecks(config);
      return { lib, config };
    })();
    try {
      return await this.discovered;
    } catch (error) {
      this.discovered = undefined;
      throw new OidcError('provider', error instanceof Error ? error.message : String(error));
    }
  }
}

/**
 * Starts a single sign-on: state, nonce and a PKCE verifier go into a database row keyed by the
 * hash of a new cookie token, and the browser is sent to the provider's authorization endpoint.
 */
export async function startOidcLogin(
  db: Executor,
  provider: OidcProvider,
  input: { role: LoginRole; returnUrl: string | undefined; redirectUri: string; now?: Date },
): Promise<{ url: string; cookieToken: string; expiresAt: Date }> {
  const { lib, config } = await provider.connect();
  const now = input.now ?? new Date();
  const codeVerifier = lib.randomPKCECodeVerifier();
  const state = lib.randomState();
  const nonce = lib.randomNonce();
  const cookieToken = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + OIDC_LOGIN_MS);
  await repo.insertOidcLogin(db, {
    id: hashToken(cookieToken),
    state,
    nonce,
    codeVerifier,
    role: input.role,
    returnUrl: safeReturnUrl(input.returnUrl ?? null),
    expiresAt,
  });
  const url = lib.buildAuthorizationUrl(config, {
    redirect_uri: input.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await lib.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, cookieToken, expiresAt };
}

/** Who the provider says signed in: its `sub`, and the e-mail when the provider vouches for it. */
export interface OidcIdentity {
  subject: string;
  /** The e-mail, only when verified (or PORTAL_OIDC_EMAIL_VERIFIED=assume and not denied). */
  verifiedEmail: string | undefined;
}

/**
 * The provider's answer: the row of this browser's sign-in is taken (so a callback works once),
 * the code exchanged with the verifier, and the ID token verified (signature from the JWKS,
 * issuer, audience, expiry, nonce). The e-mail comes from the ID token, else from userinfo.
 */
export async function finishOidcLogin(
  db: Executor,
  provider: OidcProvider,
  input: { cookieToken: string | undefined; callbackUrl: URL; redirectUri: string; now?: Date },
): Promise<{ identity: OidcIdentity; role: LoginRole; returnUrl: string | null }> {
  const now = input.now ?? new Date();
  const login = input.cookieToken ? await repo.takeOidcLogin(db, hashToken(input.cookieToken), now) : undefined;
  if (!login) throw new OidcError('expired');
  if (input.callbackUrl.searchParams.has('error')) throw new OidcError('failed', input.callbackUrl.searchParams.get('error') ?? '');
  const { lib, config } = await provider.connect();

  let claims: Record<string, unknown>;
  let accessToken: string;
  try {
    // The library checks the answer against what the callback is meant to carry, with our redirect URI.
    const current = new URL(input.redirectUri);
    current.search = input.callbackUrl.search;
    const tokens = await lib.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
    accessToken = tokens.access_token;
  } catch (error) {
    throw new OidcError('failed', error instanceof Error ? error.message : String(error));
  }
  const subject = typeof claims.sub === 'string' ? claims.sub : undefined;
  if (!subject) throw new OidcError('failed', 'no sub');

  let email = typeof claims.email === 'string' ? claims.email : undefined;
  let verified: unknown = claims.email_verified;
  if (email === undefined || verified === undefined) {
    const info = await lib.fetchUserInfo(config, accessToken, subject).catch(() => undefined);
    email ??= typeof info?.email === 'string' ? info.email : undefined;
    verified ??= info?.email_verified;
  }
  const trusted = verified === true || (provider.settings.emailVerified === 'assume' && verified !== false);
  return { identity: { subject, verifiedEmail: trusted ? email?.toLowerCase() : undefined }, role: login.role, returnUrl: login.returnUrl };
}
