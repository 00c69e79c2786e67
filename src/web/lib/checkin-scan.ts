import { ScanResultSchema, type ScanResult } from '../../shared/schemas/checkins';
import { api } from './api-client';
import { signCheckin } from './device-key';

/** Where a scan's outcome is shown (the server's GET /c/:token sends its refusals there too). */
export const RESULT_PATH = '/checkin-result';

/** The subject the device signs for a kept scan, and what /c/done hands the scan page. */
export const PENDING_SUBJECT = 'pending';

/** Checks the signed-in student in with the QR's token or the code typed, signed by this device when it can. */
export async function checkIn(what: { token: string } | { code: string }): Promise<ScanResult> {
  const proof = await signCheckin('token' in what ? what.token : what.code);
  return api.post('/api/checkins/scan', { ...what, ...proof }, ScanResultSchema);
}

/** Completes the scan kept while the student signed in (the portal_scan cookie). */
export async function completeKeptScan(): Promise<ScanResult> {
  const proof = await signCheckin(PENDING_SUBJECT);
  return api.post('/api/checkins/scan/pending', { ...proof }, ScanResultSchema);
}

/** The result page's address for an outcome: the mark, or the refusal's message. */
export function resultAddress(outcome: ScanResult | Error): string {
  const query =
    outcome instanceof Error
      ? new URLSearchParams({ error: outcome.message })
      : new URLSearchParams({ status: outcome.status, class: outcome.class, period: String(outcome.period), ...(outcome.markKept ? { kept: 'true' } : {}) });
  return `${RESULT_PATH}?${query.toString()}`;
}

/** An outcome in words: "You are checked in to CSE3, period 2: present". */
export function outcomeInWords(outcome: { status: string; class: string; period: number; markKept: boolean }): string {
  const where = outcome.period > 0 ? `${outcome.class}, period ${outcome.period}` : `${outcome.class} for the day`;
  if (outcome.markKept) return `You are checked in to ${where}. Your teacher had already marked you: ${outcome.status}.`;
  return `You are checked in to ${where}: ${outcome.status}`;
}
