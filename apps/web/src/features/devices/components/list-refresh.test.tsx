import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { ListRefresh } from './list-refresh.tsx';

describe('list refresh', () => {
  it('renders the list once, and keeps it mounted when pull-to-refresh arrives', async () => {
    let renders = 0;
    let mounts = 0;
    const List = () => {
      renders += 1;
      useEffect(() => {
        mounts += 1;
      }, []);
      return <div>cards</div>;
    };
    render(
      <ListRefresh onRefresh={() => Promise.resolve()}>
        <List />
      </ListRefresh>,
    );
    const list = screen.getByText('cards');
    // The first render is the still copy: no status text, the list already in place.
    expect(screen.queryByText('下拉刷新')).toBeNull();

    // PullToRefresh arrived (its status text at rest), around the very same list node.
    await screen.findByText('下拉刷新', {}, { timeout: 20_000 });
    expect(list.isConnected).toBe(true);
    expect(screen.getByText('cards')).toBe(list);
    expect({ renders, mounts }).toEqual({ renders: 1, mounts: 1 });
  }, 30_000);
});
