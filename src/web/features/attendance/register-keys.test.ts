import { describe, expect, it } from 'vitest';
import { registerKey } from './register-keys';

describe('registerKey', () => {
  it('moves with the arrows, Home and End, stopping at the ends', () => {
    expect(registerKey('ArrowDown', 0, 3)).toEqual({ focus: 1 });
    expect(registerKey('ArrowDown', 2, 3)).toEqual({ focus: 2 });
    expect(registerKey('ArrowUp', 0, 3)).toEqual({ focus: 0 });
    expect(registerKey('ArrowUp', 2, 3)).toEqual({ focus: 1 });
    expect(registerKey('Home', 2, 3)).toEqual({ focus: 0 });
    expect(registerKey('End', 0, 3)).toEqual({ focus: 2 });
  });

  it('marks with P, A, L and E in either case and moves on to the next student', () => {
    expect(registerKey('p', 0, 3)).toEqual({ focus: 1, mark: 'present' });
    expect(registerKey('A', 1, 3)).toEqual({ focus: 2, mark: 'absent' });
    expect(registerKey('l', 2, 3)).toEqual({ focus: 2, mark: 'late' });
    expect(registerKey('E', 0, 1)).toEqual({ focus: 0, mark: 'excused' });
  });

  it('leaves other keys, keys with Ctrl, Alt or Meta, and an empty list alone', () => {
    expect(registerKey('x', 0, 3)).toBeNull();
    expect(registerKey('Tab', 0, 3)).toBeNull();
    expect(registerKey(' ', 0, 3)).toBeNull();
    expect(registerKey('a', 0, 3, true)).toBeNull();
    expect(registerKey('ArrowDown', 0, 0)).toBeNull();
  });
});
