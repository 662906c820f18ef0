/** A QR code of a link, drawn on a canvas (no markup from elsewhere, nothing for the page policy to refuse). */
import { useEffect, useRef } from 'react';
import QRCode from 'qrcode';

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    // Dark on white in both themes: phone cameras read that best.
    if (canvas.current) void QRCode.toCanvas(canvas.current, text, { width: size, margin: 2, color: { dark: '#000000', light: '#ffffff' } });
  }, [text, size]);
  return <canvas ref={canvas} className="qr-code" role="img" aria-label={label} width={size} height={size} />;
}
