import type { Locator, Page } from 'playwright-core';

/** /deviceStatistics: the search form (line, group, start, end) and the result cards. */
export class StatisticsPage {
  readonly form: Locator;
  readonly line: Locator;
  readonly group: Locator;
  readonly start: Locator;
  readonly end: Locator;
  readonly searchButton: Locator;
  readonly problem: Locator;
  readonly cards: Locator;
  readonly total: Locator;
  readonly listState: Locator;
  /** The row that says the search failed; a tap asks again. */
  readonly retry: Locator;

  constructor(private readonly page: Page) {
    this.form = page.getByTestId('statistics-form');
    this.line = page.getByTestId('statistics-line');
    this.group = page.getByTestId('statistics-group');
    this.start = page.getByTestId('statistics-start');
    this.end = page.getByTestId('statistics-end');
    this.searchButton = page.getByTestId('statistics-search');
    this.problem = page.getByTestId('statistics-problem');
    this.cards = page.getByTestId('statistics-card');
    this.total = page.getByTestId('statistics-total');
    this.listState = page.getByTestId('statistics-results').getByTestId('list-state');
    this.retry = page
      .getByTestId('statistics-results')
      .locator('[data-testid="list-state"][data-state="error"]');
  }

  async waitUntilShown(): Promise<void> {
    await this.form.waitFor();
  }

  /** The picker's value, 'YYYY-MM-DD HH:mm:ss'. */
  async range(): Promise<[string, string]> {
    const read = async (field: Locator) => {
      const value = (await field.inputValue()).replace('T', ' ');
      return value.length === 16 ? `${value}:00` : value.slice(0, 19);
    };
    return [await read(this.start), await read(this.end)];
  }

  /** Sets the times as the phone's picker would. */
  async setRange(start: string, end: string): Promise<void> {
    await this.start.fill(start.replace(' ', 'T'));
    await this.end.fill(end.replace(' ', 'T'));
  }

  async lineOptions(): Promise<string[]> {
    return this.line.locator('option').allTextContents();
  }

  async chooseLine(name: string): Promise<void> {
    await this.line.selectOption(name);
  }

  async tapGroup(): Promise<void> {
    await this.group.tap();
  }

  async search(): Promise<void> {
    await this.searchButton.tap();
  }

  async problemText(): Promise<string> {
    return ((await this.problem.textContent()) ?? '').trim();
  }

  async totalCount(): Promise<number> {
    return Number(/(\d+)/.exec((await this.total.textContent()) ?? '')?.[1]);
  }

  async listStateKind(): Promise<string> {
    return (await this.listState.getAttribute('data-state')) ?? '';
  }

  /** Scrolls to the list's end, page after page, until 没有更多了. */
  async scrollToEnd(): Promise<void> {
    while ((await this.listStateKind()) !== 'end') {
      const before = await this.cards.count();
      await this.listState.scrollIntoViewIfNeeded();
      await this.page.waitForFunction(
        (shown) =>
          document.querySelectorAll('[data-testid="statistics-card"]').length > shown ||
          document
            .querySelector('[data-testid="statistics-results"] [data-testid="list-state"]')
            ?.getAttribute('data-state') === 'end',
        before,
      );
    }
    // The last cards pushed the end notice down: bring it into view for the picture.
    await this.listState.scrollIntoViewIfNeeded();
  }

  /** A card's comparison: its text and whether it met its target ('true' | 'false' | 'none'). */
  async metric(card: Locator, name: string): Promise<{ text: string; ok: string }> {
    const metric = card.getByTestId(`statistics-metric-${name}`);
    return {
      text: ((await metric.textContent()) ?? '').trim(),
      ok: (await metric.getAttribute('data-ok')) ?? '',
    };
  }

  /** The colour a figure is drawn in, as the phone shows it. */
  async metricColour(card: Locator, name: string): Promise<string> {
    return card
      .getByTestId(`statistics-metric-${name}`)
      .locator('span')
      .first()
      .evaluate((node) => getComputedStyle(node).color);
  }
}
