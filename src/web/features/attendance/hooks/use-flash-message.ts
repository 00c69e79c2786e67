import { useCallback, useEffect, useState } from 'react';
import { MESSAGE_DISPLAY_MS } from '../../../../shared/constants';

export interface FlashMessage {
  kind: 'success' | 'error';
  text: string;
  detail?: string;
}

/** A message that disappears after MESSAGE_DISPLAY_MS (the specification's three seconds); a new one restarts the clock. */
export function useFlashMessage(): [FlashMessage | null, (message: FlashMessage | null) => void] {
  // A fresh object per show, so that showing the same text twice still restarts the timer.
  const [message, setMessage] = useState<FlashMessage | null>(null);
  useEffect(() => {
    if (!message) return undefined;
    const timer = window.setTimeout(() => setMessage(null), MESSAGE_DISPLAY_MS);
    return () => window.clearTimeout(timer);
  }, [message]);
  const show = useCallback((next: FlashMessage | null) => setMessage(next && { ...next }), []);
  return [message, show];
}
