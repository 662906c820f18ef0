/**
 * A labelled input with its hint and its error outside the label, so the input's name stays its label alone; both are
 * tied to it by aria-describedby, and the error is announced as it appears.
 */
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  /** The server's or the form's words about this field; nothing when empty. */
  error?: string;
  /** More ids describing the input (a notice above the form). */
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
}

export function TextField({ label, hint, error, describedBy, inputRef, className, ...input }: TextFieldProps) {
  const id = useId();
  // A refusal that repeats the hint (the password rule) replaces it rather than saying it twice.
  if (error && hint === error) hint = undefined;
  const described = [describedBy, hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input ref={inputRef} id={id} aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
