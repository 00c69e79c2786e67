/**
 * Tests take today's date once (a register for today, a report ending today), as the server takes
 * it once per request. A test that ran across midnight UTC would see the server's today move away
 * from its own: one that would start in the last two minutes of a day waits for the next one.
 * Used before every Vitest file (midnight-guard.ts) and every browser journey (e2e/fixtures.ts);
 * neither runs for two minutes.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const GUARD_MS = 2 * 60 * 1000;

/** How long to wait at `now` (ms since the epoch) before a test may start: 0 but near midnight UTC. */
export function waitNearMidnight(now: number): number {
  const untilMidnight = DAY_MS - (now % DAY_MS);
  return untilMidnight <= GUARD_MS ? untilMidnight + 1_000 : 0;
}

/**
 * Waits out the end of the day when a test would start near midnight UTC (see waitNearMidnight);
 * `beforeWaiting` hears how long first (a journey lengthens its timeout by it).
 */
export async function waitOutMidnight(beforeWaiting?: (ms: number) => void): Promise<void> {
  const wait = waitNearMidnight(Date.now());
  if (wait <= 0) return;
  beforeWaiting?.(wait);
  await new Promise((resolve) => setTimeout(resolve, wait));
}
