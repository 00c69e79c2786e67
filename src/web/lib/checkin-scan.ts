import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { MarkStatus } from '../../shared/attendance-rules';
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

/** A mark as an outcome names it, in the language shown. */
const MARK_WORDS: Record<MarkStatus, MessageDescriptor> = {
  present: msg`present`,
  absent: msg`absent`,
  late: msg`late`,
  excused: msg`excused`,
};

/** An outcome in words, in the language shown: "You are checked in to CSE3, period 2: present". */
export function outcomeInWords(outcome: { status: string; class: string; period: number; markKept: boolean }): string {
  const className = outcome.class;
  const period = outcome.period;
  // A status the page does not know (an address typed by hand) shows as it came.
  const mark = Object.hasOwn(MARK_WORDS, outcome.status) ? i18n._(MARK_WORDS[outcome.status as MarkStatus]) : outcome.status;
  if (outcome.markKept) {
    return period > 0
      ? t`You are checked in to ${className}, period ${period}. Your teacher had already marked you: ${mark}.`
      : t`You are checked in to ${className} for the day. Your teacher had already marked you: ${mark}.`;
  }
  return period > 0 ? t`You are checked in to ${className}, period ${period}: ${mark}` : t`You are checked in to ${className} for the day: ${mark}`;
}
