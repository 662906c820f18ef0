/**
 * One submit at a time on an account form: the buttons are disabled while it runs, the errors of the last try are
 * cleared, and an unexpected failure lands under the form. A cancelled second-factor question is no failure.
 */
import { useState } from 'react';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';

export function useFormRun<F extends string>() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<F | 'form', string>>>({});
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setErrors({});
    try {
      await fn();
    } catch (err) {
      if (!isApiError(err, 'cancelled')) setErrors({ form: errorMessage(err) } as Partial<Record<F | 'form', string>>);
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, setErrors, run };
}
