/**
 * No test file runs across midnight UTC (midnight.ts): a file that would start in the last two
 * minutes of a day waits for the next one. It runs before every test file (vitest.config.ts
 * `setupFiles`) and costs nothing at any other time of day.
 */
import { waitOutMidnight } from './midnight';

await waitOutMidnight();
