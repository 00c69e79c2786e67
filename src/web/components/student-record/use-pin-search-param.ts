import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The searched PIN kept in the URL (`?pin=`), so a search can be shared and survives a reload.
 * Returns the PIN (null when the URL has none) and a setter; null removes it. Each new search is
 * its own history entry, so Back returns to the previous student.
 */
export function usePinSearchParam(): [string | null, (pin: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const pin = params.get('pin');
  const setPin = useCallback(
    (next: string | null) => {
      setParams((current) => {
        const updated = new URLSearchParams(current);
        if (next === null || next === '') updated.delete('pin');
        else updated.set('pin', next);
        return updated;
      });
    },
    [setParams],
  );
  return [pin === null ? null : pin.trim(), setPin];
}
