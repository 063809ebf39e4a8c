import type { Locator, Page } from 'playwright-core';
import { waitUntilSettled } from '../support/settle.ts';
import { paths } from '../support/app-paths.ts';

/** What a machine card shows (docs/product.md section 3, "Machine card"). */
interface CardView {
  snCode: string;
  status: string;
  name: string;
  statusLabel: string;
  iot: string;
  metrics: Record<MetricKey, string>;
}

export const CARD_METRICS = ['produced', 'ppm', 'superiority', 'yield', 'use-rate'] as const;
export type MetricKey = (typeof CARD_METRICS)[number];

const LINE_KEY_PREFIX = 'line:';

/** /deviceList inside the tab layout: search, left menu, collapsible groups of machine cards. */
export class DeviceListPage {
  readonly tabBar: Locator;
  readonly search: Locator;
  readonly menuButton: Locator;
  readonly menuDrawer: Locator;
  readonly groups: Locator;
  readonly cards: Locator;
  readonly summary: Locator;
  readonly updatedAt: Locator;
  /** Selection mode (订阅设置): a checkbox per card, the bar with the count and names. */
  readonly subscribeToggle: Locator;
  readonly checkboxes: Locator;
  readonly selectionCount: Locator;
  readonly selectionList: Locator;
  readonly selectionCancel: Locator;

  constructor(private readonly page: Page) {
    this.tabBar = page.getByTestId('tab-bar');
    this.search = page.getByTestId('device-search');
    this.menuButton = page.getByTestId('menu-button');
    this.menuDrawer = page.getByTestId('menu-drawer');
    this.groups = page.getByTestId('device-group');
    this.cards = page.getByTestId('device-card');
    this.summary = page.getByTestId('status-summary');
    this.updatedAt = page.getByTestId('list-updated-at');
    this.subscribeToggle = page.getByTestId('subscribe-toggle');
    this.checkboxes = page.getByTestId('card-checkbox');
    this.selectionCount = page.getByTestId('selection-count');
    this.selectionList = page.getByTestId('selection-list');
    this.selectionCancel = page.getByTestId('selection-cancel');
  }

  /** The status summary's entry for one status: running, standBy, error or offLine. */
  summaryItem(status: string): Locator {
    return this.summary.getByTestId(`status-summary-${status}`);
  }

  /** The count and label of each status in the summary, in screen order. */
  async summaryCounts(): Promise<{ label: string; count: number }[]> {
    return this.summary.locator('button').evaluateAll((nodes) =>
      nodes.map((node) => ({
        count: Number.parseInt(node.firstElementChild?.textContent ?? '', 10),
        label: node.lastElementChild?.textContent ?? '',
      })),
    );
  }

  async summaryCount(status: string): Promise<number> {
    const text = await this.summaryItem(status).getByTestId('status-summary-count').textContent();
    return Number.parseInt(text ?? '', 10);
  }

  /** Taps a status in the summary (a second tap on the same status clears the filter). */
  async tapSummary(status: string): Promise<void> {
    await this.summaryItem(status).tap();
  }

  async isSummaryActive(status: string): Promise<boolean> {
    return (await this.summaryItem(status).getAttribute('aria-pressed')) === 'true';
  }

  async updatedAtText(): Promise<string> {
    return ((await this.updatedAt.textContent()) ?? '').trim();
  }

  /** Types into the search bar and presses Enter (applies at once, no debounce). */
  async searchFor(text: string): Promise<void> {
    const input = this.search.locator('input');
    await input.fill(text);
    await input.press('Enter');
  }

  async clearSearch(): Promise<void> {
    const input = this.search.locator('input');
    await input.fill('');
    await input.press('Enter');
  }

  /** The data-state of every list footer on screen (one per open group or result list). */
  async listStates(): Promise<string[]> {
    return this.page
      .getByTestId('list-state')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state') ?? ''));
  }

  /** Footers that say 请求失败，点击重新加载. */
  async retryStates(): Promise<string[]> {
    return (await this.listStates()).filter((state) => state === 'error');
  }

  /** The one result list a search or a status filter shows. */
  resultCards(): Locator {
    return this.page
      .locator('[data-testid="device-group"][data-key="result"]')
      .getByTestId('device-card');
  }

  /** One machine's card in the result list. */
  resultCard(sn: string): Locator {
    return this.resultCards().and(this.page.locator(`[data-sn="${sn}"]`));
  }

  /** The statuses of every card on screen. */
  async visibleStatuses(): Promise<string[]> {
    return this.cards.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-status') ?? ''),
    );
  }

  /** Figures whose text does not fit their box (cut off or hidden), as "SN metric". */
  async truncatedFigures(): Promise<string[]> {
    return this.cards.evaluateAll((cards) =>
      cards.flatMap((card) =>
        [...card.querySelectorAll('[data-testid^="card-metric-"]')].flatMap((metric) =>
          [...metric.querySelectorAll('div')].some((el) => el.scrollWidth > el.clientWidth + 1)
            ? [`${card.getAttribute('data-sn')} ${metric.getAttribute('data-testid')}`]
            : [],
        ),
      ),
    );
  }

  /** The smallest font size, in px, of any figure on a card (not the "目标(至当前)" note). */
  async smallestFigureFontPx(): Promise<number> {
    return this.cards.evaluateAll((cards) =>
      Math.min(
        ...cards.flatMap((card) =>
          [
            ...card.querySelectorAll(
              '[data-testid^="card-metric-"] span:not([data-testid^="card-target-note-"])',
            ),
          ].map((el) => Number.parseFloat(getComputedStyle(el).fontSize)),
        ),
      ),
    );
  }

  async open(): Promise<void> {
    await this.page.goto(paths.deviceList);
  }

  /** The list is shown once every group header is drawn and the first group has its cards. */
  async waitUntilLoaded(): Promise<void> {
    await this.search.waitFor();
    await this.groups.first().waitFor();
    await this.cards.first().waitFor();
  }

  group(line: string): Locator {
    return this.page.locator(`[data-testid="device-group"][data-key="${LINE_KEY_PREFIX}${line}"]`);
  }

  /** The production lines the groups stand for, in screen order. */
  async lineNames(): Promise<string[]> {
    const keys = await this.groups.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-key') ?? ''),
    );
    return keys.map((key) =>
      key.startsWith(LINE_KEY_PREFIX) ? key.slice(LINE_KEY_PREFIX.length) : key,
    );
  }

  async headerTitles(): Promise<string[]> {
    return this.page.getByTestId('device-group-header').allTextContents();
  }

  async groupCount(line: string): Promise<number> {
    const text = (await this.group(line).getByTestId('device-group-count').textContent()) ?? '';
    return Number.parseInt(text, 10);
  }

  async isExpanded(line: string): Promise<boolean> {
    return (await this.group(line).getAttribute('data-expanded')) === 'true';
  }

  async toggleGroup(line: string): Promise<void> {
    await this.group(line).getByTestId('device-group-header').tap();
  }

  groupCards(line: string): Locator {
    return this.group(line).getByTestId('device-card');
  }

  /** The group's list footer: loading, more, end (没有更多了), empty, error. */
  async groupListState(line: string): Promise<string | null> {
    return this.group(line).getByTestId('list-state').getAttribute('data-state');
  }

  /**
   * Scrolls down to the group's footer until the group has loaded its last page: the list
   * loads the next 15 cards when its footer comes into view.
   */
  async scrollToEndOf(line: string): Promise<void> {
    const key = `${LINE_KEY_PREFIX}${line}`;
    const footer = this.group(line).getByTestId('list-state');
    while ((await footer.getAttribute('data-state')) !== 'end') {
      const shown = await this.groupCards(line).count();
      await footer.scrollIntoViewIfNeeded();
      await this.page.waitForFunction(
        ({ key, shown }) => {
          const group = document.querySelector(`[data-testid="device-group"][data-key="${key}"]`);
          const state = group?.querySelector('[data-testid="list-state"]');
          const cards = group?.querySelectorAll('[data-testid="device-card"]').length ?? 0;
          return cards > shown || state?.getAttribute('data-state') === 'end';
        },
        { key, shown },
      );
    }
    await footer.scrollIntoViewIfNeeded();
  }

  /** Back to the top of the list (the search bar and the summary stay pinned anyway). */
  async scrollToTop(): Promise<void> {
    await this.groups.first().evaluate((group) => {
      for (let node = group.parentElement; node; node = node.parentElement) node.scrollTop = 0;
      window.scrollTo(0, 0);
    });
    await this.updatedAt.waitFor();
  }

  /** SN codes of every card on screen, whatever group it is in. */
  async visibleSnCodes(): Promise<string[]> {
    return this.cards.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-sn') ?? ''),
    );
  }

  async readCard(card: Locator): Promise<CardView> {
    const text = async (testId: string) =>
      ((await card.getByTestId(testId).textContent()) ?? '').trim();
    const metrics = {} as Record<MetricKey, string>;
    for (const key of CARD_METRICS) metrics[key] = await text(`card-metric-${key}`);
    return {
      snCode: (await card.getAttribute('data-sn')) ?? '',
      status: (await card.getAttribute('data-status')) ?? '',
      name: await text('card-name'),
      statusLabel: await text('card-status'),
      iot: await text('card-iot'),
      metrics,
    };
  }

  /** A card of a machine that is producing right now, or the first card if none is. */
  async runningCard(line: string): Promise<Locator> {
    const running = this.groupCards(line).and(this.page.locator('[data-status="running"]'));
    return (await running.count()) > 0 ? running.first() : this.groupCards(line).first();
  }

  async openCard(card: Locator): Promise<void> {
    await card.tap();
  }

  async openMenu(): Promise<void> {
    await this.menuButton.tap();
    await waitUntilSettled(this.menuDrawer.locator('.adm-popup-body'));
    await waitUntilSettled(this.menuDrawer.locator('.adm-mask'));
  }

  async menuEntries(): Promise<{ kind: string; text: string }[]> {
    return this.menuDrawer.getByTestId('menu-item').evaluateAll((nodes) =>
      nodes.map((node) => ({
        kind: node.getAttribute('data-kind') ?? '',
        text: node.firstElementChild?.textContent ?? '',
      })),
    );
  }

  /** Picking 全部 keeps the whole list and closes the drawer. */
  async chooseAllFromMenu(): Promise<void> {
    await this.menuDrawer.locator('[data-testid="menu-item"][data-kind="all"]').tap();
    await this.menuDrawer.getByTestId('menu-item').first().waitFor({ state: 'hidden' });
  }

  async goToCenter(): Promise<void> {
    await this.page.getByTestId('tab-center').tap();
  }
}
