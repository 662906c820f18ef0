/**
 * The card that waits for a mailed code (a verified sign-up, a forgotten password, a sign-in by code): what was sent
 * where, the code, any field of the page's own (a new password), the button, "send a new code" after its cool-down,
 * and the way back. Checking the code and keeping its token is useCodeStep's; what the token is for is the page's.
 */
import { useId, type FormEvent, type ReactNode } from 'react';
import { Logo } from '../layout/logo';
import { FormError } from '../../components/form-error';
import { CodeField, ResendButton } from './code-field';
import type { useCodeStep } from './use-code-step';

interface Props {
  step: ReturnType<typeof useCodeStep>;
  title: string;
  /** What was sent where, said as the step opens and after each new code. */
  notice: ReactNode;
  submitLabel: string;
  /** Checks the page's own fields before the code is (false: refused, said at the field). */
  ready?: () => boolean;
  /** Spends the token the checked code earned; refusals of the token go to `step.tokenRefused`. */
  onToken: (token: string) => Promise<void>;
  back: { label: string; onClick: () => void };
  /** Fields between the code and the button. */
  fields?: ReactNode;
  children?: ReactNode;
}

export function CodeStepForm({ step, title, notice, submitLabel, ready, onToken, back, fields, children }: Props) {
  const titleId = useId();
  const noticeId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (step.busy || (ready && !ready())) return;
    void step.run(async () => {
      const token = await step.verify();
      if (token) await onToken(token);
    });
  };
  return (
    <form className="login-card" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <Logo />
      <h1 id={titleId}>{title}</h1>
      <p id={noticeId} className="login-notice" role="status">
        {notice}
      </p>
      <CodeField value={step.code} onChange={step.setCode} error={step.codeError} describedBy={noticeId} inputRef={step.codeRef} />
      {fields}
      <FormError error={step.formError} />
      <button className="btn primary wide" type="submit" disabled={step.busy}>
        {submitLabel}
      </button>
      <p className="login-switch">
        <ResendButton left={step.secondsLeft} busy={step.busy} onClick={() => void step.resend()} />
      </p>
      <p className="login-switch">
        <button type="button" className="link" onClick={back.onClick}>
          {back.label}
        </button>
      </p>
      {children}
    </form>
  );
}
