/**
 * The schema library as the shared contract and the web app use it: they import `z` from here,
 * so that this runs before any schema is made. In a browser page zod is told not to generate
 * parsers (`jitless`): it would first try `new Function`, which the portal's Content Security
 * Policy forbids (no 'unsafe-eval'), and every page load reported a violation for the try, caught
 * or not. It then parses as it already did there, without them. The server, where they are
 * allowed and faster, keeps them (no `window` in Node).
 */
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
