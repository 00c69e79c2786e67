/**
 * The identity provider of the single sign-on journey: the portal is told its address at start
 * (playwright.config.ts); the journey starts it on that port (e2e/single-sign-on.spec.ts). The
 * portal discovers the provider only when someone presses "Sign in with …", so the other
 * journeys never need it.
 */
export const identityProviderPort = (portalPort: number): number => portalPort + 50;
export const IDP_NAME = 'Demo Campus Account';
