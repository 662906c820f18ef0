import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSubmit } from './use-submit';

/** A promise to settle from the test, so `busy` can be seen while the work runs. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe(useSubmit.name, () => {
  it('is busy while the work runs and clears the last error when a try starts', async () => {
    const { result } = renderHook(() => useSubmit());
    act(() => result.current.setError('before'));
    const work = deferred();
    let done!: Promise<boolean>;
    act(() => {
      done = result.current.submit(() => work.promise, () => 'failed');
    });
    expect(result.current.busy).toBe(true);
    expect(result.current.error).toBe('');
    await act(async () => work.resolve());
    expect(await done).toBe(true);
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBe('');
  });

  it('shows what onError makes of a failure, and answers false', async () => {
    const { result } = renderHook(() => useSubmit());
    let ok: boolean | undefined;
    await act(async () => {
      ok = await result.current.submit(
        () => Promise.reject(new Error('offline')),
        (err) => `said: ${(err as Error).message}`,
      );
    });
    expect(ok).toBe(false);
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBe('said: offline');
  });

  it('leaves the error empty when onError answers nothing', async () => {
    const seen: unknown[] = [];
    const { result } = renderHook(() => useSubmit());
    await act(async () => {
      await result.current.submit(
        () => Promise.reject(new Error('x')),
        (err) => void seen.push(err),
      );
    });
    expect(seen).toHaveLength(1);
    expect(result.current.error).toBe('');
  });

  it('stays busy after a success that leaves the page, not after a failure', async () => {
    const { result } = renderHook(() => useSubmit());
    await act(async () => {
      await result.current.submit(() => Promise.resolve(), () => 'failed', { leaves: true });
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      await result.current.submit(() => Promise.reject(new Error('x')), () => 'failed', { leaves: true });
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBe('failed');
  });

  it("keeps an error of the form's own shape, starting from the initial one", async () => {
    type Errors = { code?: string; form?: string };
    const { result } = renderHook(() => useSubmit<Errors>({}, { code: 'wrong code' }));
    expect(result.current.error).toEqual({ code: 'wrong code' });
    await act(async () => {
      await result.current.submit(
        () => Promise.reject(new Error('x')),
        () => ({ form: 'failed' }),
      );
    });
    expect(result.current.error).toEqual({ form: 'failed' });
  });
});
