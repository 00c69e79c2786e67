import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { checkIn, completeKeptScan, PENDING_SUBJECT, resultAddress } from '../../../lib/checkin-scan';

/**
 * /scan#<token>: where the QR's address (/c/<token>) sends a signed-in student. The token is in
 * the fragment, so it reaches no log; the page checks in with the device's signature and shows
 * the result. /scan#pending completes the scan kept while the student signed in.
 */
export function ScanPage() {
  const { t } = useLingui();
  const { hash } = useLocation();
  const navigate = useNavigate();
  // Once: React's development double effects, or a re-render, must not scan twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    let token = '';
    try {
      token = decodeURIComponent(hash.replace(/^#/, ''));
    } catch {
      token = '';
    }
    const scanning = token === PENDING_SUBJECT || token === 'done' ? completeKeptScan() : checkIn({ token });
    scanning.then(
      (result) => void navigate(resultAddress(result), { replace: true }),
      (error: unknown) => void navigate(resultAddress(error instanceof Error ? error : new Error(String(error))), { replace: true }),
    );
  }, [hash, navigate]);

  return <PageLoader label={t`Checking you in`} />;
}

export default ScanPage;
