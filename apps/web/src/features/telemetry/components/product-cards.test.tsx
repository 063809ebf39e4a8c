import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProductCards } from './product-cards.tsx';

describe('product cards', () => {
  it('shows no data as "—", not as 0', () => {
    render(
      <ProductCards
        items={[
          { key: 'yield', name: '良率', value: null },
          { key: 'avgPpm', name: '平均PPM', value: null },
          { key: 'produced', name: '产量', value: 0 },
        ]}
      />,
    );
    const valueOf = (name: string) =>
      within(screen.getByRole('group', { name })).getByText(/^(—|\d)/).textContent;
    expect(valueOf('良率')).toBe('—');
    expect(valueOf('平均PPM')).toBe('—');
    expect(valueOf('产量')).toBe('0');
  });
});
