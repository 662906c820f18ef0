import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SortOrder } from '@haul/shared';
import { initI18n } from '../../lib/i18n';
import { ListHead } from './list-head';

beforeAll(() => initI18n());
afterEach(cleanup);

function head(order: SortOrder) {
  const chosen: SortOrder[] = [];
  render(
    <div role="grid" aria-label="Files">
      <ListHead order={order} onOrder={(o) => chosen.push(o)} />
    </div>,
  );
  return chosen;
}

describe(ListHead.name, () => {
  it('is a header row of the grid that assistive technology sees, its titles column headers', () => {
    head('NAME_ASC');
    const row = screen.getByRole('row');
    expect(row.closest('[aria-hidden="true"]')).toBeNull();
    expect(row.getAttribute('aria-rowindex')).toBe('1');
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Name', 'Size', 'Modified']);
    // The row is no file: the tests' rowNames and the grid's handlers look for [data-item].
    expect(row.hasAttribute('data-item')).toBe(false);
  });

  it('sorts with buttons that take the keyboard, the sorted column marked with aria-sort', () => {
    const chosen = head('SIZE_DESC');
    const size = screen.getByRole('button', { name: 'Size' });
    expect(size.tabIndex).toBe(0);
    expect(size.closest('[role=columnheader]')!.getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: 'Name' }).hasAttribute('aria-sort')).toBe(false);
    fireEvent.click(size);
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(chosen).toEqual(['SIZE_ASC', 'NAME_ASC']);
  });
});
