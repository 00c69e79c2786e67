/**
 * The page-weight budget of DESIGN.md section 7.4, shared by bench/page-weight.ts (which reports
 * it) and the browser journeys' build check (e2e/page-weight.spec.ts, which fails on the ceiling).
 * kB are 1000 bytes, as in Vite's build report.
 */

/** /login loads at most 120 kB of gzip JavaScript before it shows (DESIGN.md 7.4). */
export const LOGIN_JS_BUDGET_BYTES = 120 * 1000;

/**
 * Until the budget is met, the most /login may load: what it loads now, rounded up. The build
 * check fails above it, so the page can only get lighter; lower it with every saving, and set it
 * to the budget once the budget is met (bench/RESULTS.md and docs/decisions/0011 say where the
 * weight is). Raised once, from 240 to 244 kB, for dark mode (the colour scheme decided at
 * start and the theme's scales), the two-step sign-in's schemas and its lazily loaded step;
 * lowered to 188 kB when the sign-in form left its form library and popover, the theme stopped
 * naming dialogs, notifications and table scroll areas, and the notifications' container came to
 * load after the first screen.
 */
export const LOGIN_JS_CEILING_BYTES = 188 * 1000;
