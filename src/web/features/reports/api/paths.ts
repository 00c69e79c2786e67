/**
 * The reports' addresses that code outside the reports' own queries asks for: the app's start
 * asks for the dashboard of /faculty-details beside the page's code (app/page-chunks.ts). Kept
 * apart from the queries so that the app's entry imports no schema with them.
 */

/** GET /api/reports/dashboard, the server's default term; `?term=` picks another (get-dashboard.ts). */
export const DASHBOARD_PATH = '/api/reports/dashboard';
