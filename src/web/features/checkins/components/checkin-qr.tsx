import { useLingui } from '@lingui/react/macro';
import { toString as qrSvg } from 'qrcode';
import { useEffect, useState } from 'react';
import classes from './projector.module.css';

/** The QR of the check-in's current address, black on white, drawn as SVG so it stays sharp at any size. */
export function CheckinQr({ url }: { url: string }) {
  const { t } = useLingui();
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    qrSvg(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } }).then(
      (drawn) => current && setSvg(drawn),
      () => current && setSvg(null),
    );
    return () => {
      current = false;
    };
  }, [url]);
  return (
    <div
      className={classes.qr}
      role="img"
      aria-label={t`QR code to check in: scan it with your phone's camera`}
      data-testid="checkin-qr"
      data-url={url}
      // The library's own SVG of a string it encoded: no markup of anyone's.
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    />
  );
}
