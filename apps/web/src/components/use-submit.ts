/**
 * One submit at a time, for a form, a dialog or a button: `busy` while the work runs (its buttons wait), and what went
 * wrong in `error` until the next try starts. The words come from the form's own `onError`, so each form keeps
 * saying a failure as it did (under the form, at a field, in a toast).
 */
import { useState, type Dispatch, type SetStateAction } from 'react';

export interface SubmitOptions {
  /** The work leaves the page when it succeeds: `busy` stays on until the browser has gone, and clears on a failure. */
  leaves?: boolean;
}

/**
 * Runs `work` with `busy` on and the last error cleared. A failure goes to `onError`: what it answers becomes `error`;
 * answering nothing leaves `error` empty (it dealt with the failure itself). Answers whether the work succeeded.
 */
export type SubmitRun<E> = (work: () => Promise<unknown>, onError: (err: unknown) => E | void, opts?: SubmitOptions) => Promise<boolean>;

export interface Submit<E> {
  busy: boolean;
  error: E;
  /** For the form's own checks before it submits, and for clearing the error as the person types. */
  setError: Dispatch<SetStateAction<E>>;
  submit: SubmitRun<E>;
}

/** A text error, '' when there is none. */
export function useSubmit(): Submit<string>;
/** An error of the form's own shape (per field); `empty` is no error, `initial` what shows before the first try. */
export function useSubmit<E>(empty: E, initial?: E): Submit<E>;
export function useSubmit<E>(empty: E = '' as E, initial: E = empty): Submit<E> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<E>(initial);
  const submit: SubmitRun<E> = async (work, onError, opts = {}) => {
    setBusy(true);
    setError(empty);
    let ok = false;
    try {
      await work();
      ok = true;
    } catch (err) {
      const shown = onError(err);
      if (shown !== undefined) setError(shown);
    } finally {
      if (!ok || !opts.leaves) setBusy(false);
    }
    return ok;
  };
  return { busy, error, setError, submit };
}
