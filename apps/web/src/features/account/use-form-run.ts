/**
 * One submit at a time on an account form: the buttons are disabled while it runs, the errors of the last try are
 * cleared, and an unexpected failure lands under the form. A cancelled second-factor question is no failure.
 */
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { useSubmit } from '../../components/use-submit';

export function useFormRun<F extends string>() {
  const { busy, error: errors, setError: setErrors, submit } = useSubmit<Partial<Record<F | 'form', string>>>({});
  const run = async (fn: () => Promise<void>): Promise<void> => {
    await submit(fn, (err) => (isApiError(err, 'cancelled') ? undefined : ({ form: errorMessage(err) } as Partial<Record<F | 'form', string>>)));
  };
  return { busy, errors, setErrors, run };
}
