/** The one-time code input, and the "send a new code" button with its cool-down. */
import { useEffect, useState, type ClipboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/text-field';
import { codeFromText } from './code-text';

/** Seconds before another code may be asked for: the server's own wait, once a few codes went out, starts at a minute. */
export const RESEND_AFTER_SECONDS = 60;

interface CodeFieldProps {
  value: string;
  onChange: (code: string) => void;
  error?: string;
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Its label when "6-digit code" alone would not say which code (a page asking for two). */
  label?: string;
}

export function CodeField({ value, onChange, error, describedBy, inputRef, label }: CodeFieldProps) {
  const { t } = useTranslation();
  // A whole mail line pasted in gives its code, whatever stands around it.
  const paste = (e: ClipboardEvent<HTMLInputElement>) => {
    const text = e.clipboardData.getData('text');
    if (!text) return;
    e.preventDefault();
    onChange(codeFromText(text));
  };
  return (
    <TextField
      label={label ?? t('auth.code')}
      className="code-field"
      inputRef={inputRef}
      value={value}
      onChange={(e) => onChange(codeFromText(e.target.value))}
      onPaste={paste}
      error={error}
      describedBy={describedBy}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      spellCheck={false}
      required
    />
  );
}

/** Counts down the seconds left; `start(s)` begins a new wait. */
export function useCooldown(initialSeconds = 0) {
  const [until, setUntil] = useState(() => Date.now() + initialSeconds * 1000);
  const [left, setLeft] = useState(initialSeconds);
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    tick();
    if (until <= Date.now()) return;
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return { left, start: (seconds: number) => setUntil(Date.now() + seconds * 1000) };
}

/** Sends a new code; says how long until it may, and is disabled until then. */
export function ResendButton({ left, busy, onClick }: { left: number; busy: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="link resend" disabled={busy || left > 0} onClick={onClick}>
      {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.resend')}
    </button>
  );
}

/** The seconds a `too_many_requests` answer asks to wait (`details[0].retry_after_seconds`). */
export function retryAfter(err: unknown): number | undefined {
  const details = (err as { body?: { details?: unknown[] } })?.body?.details;
  const s = (details?.[0] as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  return typeof s === 'number' && s > 0 ? s : undefined;
}
