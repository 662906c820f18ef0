import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { BenefitCarousel } from './benefit-carousel';

beforeAll(() => initI18n());
afterEach(cleanup);

describe(BenefitCarousel.name, () => {
  it('names its icon buttons, and shows each name on hover (the title)', () => {
    render(<BenefitCarousel only={['hd_quality', 'web_dav']} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Pause the slides', 'Previous benefit', 'Next benefit']);
    for (const b of buttons) expect(b.title).toBe(b.getAttribute('aria-label'));
    fireEvent.click(buttons[0]!);
    expect(screen.getByRole('button', { name: 'Play the slides' }).title).toBe('Play the slides');
  });

  it('shows only the benefits it is given', () => {
    render(<BenefitCarousel only={['hd_quality', 'web_dav']} />);
    expect(screen.getByRole('group').getAttribute('aria-label')).toBe('1 of 2');
    fireEvent.click(screen.getByRole('button', { name: 'Next benefit' }));
    expect(screen.getByRole('group').dataset.benefit).toBe('web_dav');
  });
});
