import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map';

describe('RecentMap', () => {
  it('keeps at most its limit, dropping the entry set longest ago', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
  });
  it('makes an entry set again the newest, so another goes first', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect([...map]).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
  });
  it('forgets what is deleted and reads without reordering', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect(map.has('a')).toBe(false);
    map.delete('b');
    expect([...map.keys()]).toEqual(['c']);
  });
});
