/**
 * The page-weight budget of /login, shared by bench/page-weight.ts (which reports it) and the
 * browser journeys' build check (e2e/page-weight.spec.ts, which fails on the ceiling).
 * kB are 1000 bytes, as in Vite's build report.
 */

/** /login loads at most 120 kB of gzip JavaScript before it shows (decision 18). */
export const LOGIN_JS_BUDGET_BYTES = 120 * 1000;

/**
 * What the build check fails above. It was a ceiling over the budget while /login weighed more
 * (244 kB at most, then 188); the budget is met since the sign-in page shows from the entry
 * without the router, the query cache or the schema library (src/web/app/sign-in-shell.tsx), so
 * the check now holds the page to the budget itself.
 */
export const LOGIN_JS_CEILING_BYTES = LOGIN_JS_BUDGET_BYTES;
