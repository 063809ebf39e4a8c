import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import html from '../../../index.html?raw';
import { PageLoading } from './page-loading.tsx';

/** Markup with formatting aside: no whitespace-only text, style attributes as the browser reads them. */
const normalised = (element: Element): string => {
  const copy = element.cloneNode(true) as Element;
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  const blank: Node[] = [];
  while (walker.nextNode())
    if (!walker.currentNode.textContent?.trim()) blank.push(walker.currentNode);
  for (const node of blank) node.parentNode?.removeChild(node);
  for (const styled of copy.querySelectorAll('[style]')) {
    styled.setAttribute('style', (styled as HTMLElement | SVGElement).style.cssText);
  }
  return copy.outerHTML;
};

describe('the first paint', () => {
  it('is the markup React renders while a page loads, so nothing moves when the app takes over', () => {
    const shell = new DOMParser()
      .parseFromString(html, 'text/html')
      .querySelector('#root > [data-testid="page-loading"]');
    const { container } = render(<PageLoading />);
    expect(shell).not.toBeNull();
    expect(normalised(shell!)).toBe(normalised(container.firstElementChild!));
  });
});
