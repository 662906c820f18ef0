/** A QR code of a link, drawn on a canvas (no markup from elsewhere, nothing for the page policy to refuse). */
import { useEffect, useRef } from 'react';

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    // Dark on white in both themes: phone cameras read that best.
    // The encoder loads with the first code drawn: only the pages that show one need it.
    let live = true;
    void import('qrcode').then(({ default: QRCode }) => {
      if (live && canvas.current) void QRCode.toCanvas(canvas.current, text, { width: size, margin: 2, color: { dark: '#000000', light: '#ffffff' } });
    });
    return () => {
      live = false;
    };
  }, [text, size]);
  return <canvas ref={canvas} className="qr-code" role="img" aria-label={label} width={size} height={size} />;
}
