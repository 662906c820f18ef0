import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { loadWhen } from './load-when';

describe(loadWhen.name, () => {
  it('fetches the code only once it is wanted, then renders it', async () => {
    const useOpen = create<{ open: boolean }>()(() => ({ open: false }));
    let loads = 0;
    const Dialog = ({ label }: { label: string }) => <p>{label}</p>;
    const Lazy = loadWhen(
      async () => {
        loads++;
        return Dialog;
      },
      () => useOpen((s) => s.open),
    );
    const { container } = render(<Lazy label="shown" />);
    await act(async () => {});
    expect(loads).toBe(0);
    expect(container.textContent).toBe('');

    await act(async () => useOpen.setState({ open: true }));
    expect(await screen.findByText('shown')).toBeTruthy();
    expect(loads).toBe(1);

    // Closed again: the loaded component stays and decides itself what to show.
    await act(async () => useOpen.setState({ open: false }));
    expect(screen.getByText('shown')).toBeTruthy();
    expect(loads).toBe(1);
  });
});
