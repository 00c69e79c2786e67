/**
 * Tests take today's date once per file (a register for today, a report ending today), as the
 * server takes it once per request. A file that ran across midnight UTC would see the server's
 * today move away from its own, so a file that would start in the last two minutes of a day
 * waits for the next one (no test file runs for two minutes). It runs before every test file
 * (vitest.config.ts `setupFiles`) and costs nothing at any other time of day.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const GUARD_MS = 2 * 60 * 1000;

/** How long to wait at `now` (ms since the epoch) before a file may start: 0 but near midnight UTC. */
export function waitBeforeFile(now: number): number {
  const untilMidnight = DAY_MS - (now % DAY_MS);
  return untilMidnight <= GUARD_MS ? untilMidnight + 1_000 : 0;
}

const wait = waitBeforeFile(Date.now());
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
