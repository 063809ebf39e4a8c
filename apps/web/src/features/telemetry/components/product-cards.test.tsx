import { render, screen } from '@testing-library/react';
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
    expect(screen.getByTestId('product-value-yield').textContent).toBe('—');
    expect(screen.getByTestId('product-value-avgPpm').textContent).toBe('—');
    expect(screen.getByTestId('product-value-produced').textContent).toBe('0');
  });
});
