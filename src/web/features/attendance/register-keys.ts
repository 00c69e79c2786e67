import { msg } from '@lingui/core/macro';
import type { MarkStatus } from '../../../shared/attendance-rules';

/**
 * The register's keyboard model (decision 16): one Tab stop for the whole list, the focused
 * student's switch; arrows move between students, a letter marks the focused student and moves
 * to the next, as a register is called in order.
 *
 *   ArrowDown / ArrowUp   next / previous student (stops at the ends)
 *   Home / End            first / last student
 *   P, A, L, E            present, absent, late, excused, then the next student
 *
 * Space still flips the switch, as on any switch.
 */
export type RegisterKeyAction = { focus: number; mark?: MarkStatus };

const MARK_KEYS: Record<string, MarkStatus> = { p: 'present', a: 'absent', l: 'late', e: 'excused' };

/** What a key does on row `index` of `count` visible rows; null when the key is not the register's. */
export function registerKey(key: string, index: number, count: number, modified = false): RegisterKeyAction | null {
  if (count === 0 || modified) return null;
  const last = count - 1;
  switch (key) {
    case 'ArrowDown':
      return { focus: Math.min(index + 1, last) };
    case 'ArrowUp':
      return { focus: Math.max(index - 1, 0) };
    case 'Home':
      return { focus: 0 };
    case 'End':
      return { focus: last };
    default: {
      const mark = MARK_KEYS[key.toLowerCase()];
      return mark ? { focus: Math.min(index + 1, last), mark } : null;
    }
  }
}

/** The keys, as the register shows them. */
export const REGISTER_KEYS_HINT = msg`Keys: arrows move, P present, A absent, L late, E excused.`;
