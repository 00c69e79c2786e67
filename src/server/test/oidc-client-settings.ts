/** The portal's client at the test identity provider (src/server/test/oidc-provider.ts). */
export const TEST_IDP_CLIENT_ID = 'attendance-portal';
export const TEST_IDP_CLIENT_SECRET = 'a-test-client-secret-that-is-long-enough';
