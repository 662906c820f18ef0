/** Work the page must not drop silently: leaving while any is pending asks to confirm (seed 000 §1). */
let count = 0;

/** Marks work as pending until the returned promise settles. */
export async function track<T>(work: () => Promise<T>): Promise<T> {
  count++;
  try {
    return await work();
  } finally {
    count--;
  }
}

export const hasPendingWork = () => count > 0;

export function installLeaveGuard(extra: () => boolean = () => false): () => void {
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    if (!hasPendingWork() && !extra()) return;
    e.preventDefault();
    e.returnValue = '';
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  return () => window.removeEventListener('beforeunload', onBeforeUnload);
}
