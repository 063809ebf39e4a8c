import type { Locator, Page } from 'playwright-core';
import { paths } from '../support/app-paths.ts';
import { Toast } from './toast.ts';

/** antd-mobile puts a test id on an input's wrapper. */
const input = (page: Page, testId: string) =>
  page.getByTestId(testId).locator('input, textarea').first();

/** Taps the option of an antd-mobile Selector by its label. */
const choose = (page: Page, testId: string, label: string) =>
  page.getByTestId(testId).locator('.adm-selector-item', { hasText: label }).first().tap();

/** /faca: the collapsible search and the question cards. */
export class FacaListPage {
  readonly cards: Locator;
  readonly toast: Toast;

  constructor(private readonly page: Page) {
    this.cards = page.getByTestId('faca-card');
    this.toast = new Toast(page);
  }

  async open(): Promise<void> {
    await this.page.goto(paths.faca);
    await this.waitUntilLoaded();
  }

  async waitUntilLoaded(): Promise<void> {
    await this.page.locator('[data-testid="list-state"]:not([data-state="loading"])').waitFor();
  }

  /**
   * Opens the search panel and waits until it is open for good. antd-mobile animates the panel's
   * height (react-spring) in an `overflow: hidden` box and sets `height: auto` only when the
   * spring is idle; it animates again when the content grows — the process types arrive after
   * the panel opened and add a row of options above the buttons. A tap while the buttons are
   * clipped is lost: Playwright scrolls the clipping box to bring the button into view, the
   * growing panel moves it away again, and the browser's click (after the touch) hits the panel,
   * not the button — the search never ran. So: the panel idle at `auto`, its options in, and
   * the search button wholly inside it.
   */
  async openSearch(): Promise<void> {
    await this.page.getByTestId('faca-search-toggle').tap();
    await this.page.waitForFunction(
      () => {
        const panel = document.querySelector<HTMLElement>('.adm-collapse-panel-content-active');
        const button = panel?.querySelector('[data-testid="faca-search-submit"]');
        const options = panel?.querySelector(
          '[data-testid="faca-search-workmanship"] .adm-selector-item',
        );
        if (!panel || !button || !options || panel.style.height !== 'auto') return false;
        const inner = button.getBoundingClientRect();
        const outer = panel.getBoundingClientRect();
        return inner.top >= outer.top && inner.bottom <= outer.bottom;
      },
      undefined,
      { polling: 'raf' },
    );
  }

  async searchSn(sn: string): Promise<void> {
    await this.openSearch();
    const field = input(this.page, 'faca-search-sn');
    await field.fill(sn);
    // The input is controlled: React puts its state back into it after the input event.
    const typed = await field.inputValue();
    if (typed !== sn) throw new Error(`the SN field holds "${typed}", not "${sn}"`);
    await this.page.getByTestId('faca-search-submit').tap();
    // The search closes the panel: done when it has folded away and the list has reloaded.
    await this.page.waitForFunction(
      () => {
        const panel = document.querySelector<HTMLElement>('.adm-collapse-panel-content');
        return panel?.style.height === '0px';
      },
      undefined,
      { polling: 'raf' },
    );
    await this.waitUntilLoaded();
  }

  async cardSns(): Promise<string[]> {
    return this.page.getByTestId('faca-card-sn').allTextContents();
  }

  async addQuestion(): Promise<void> {
    await this.page.getByTestId('faca-add').tap();
  }
}

/** /faca/addQuestion: the question form. */
export class QuestionFormPage {
  readonly toast: Toast;
  readonly pictures: Locator;

  constructor(private readonly page: Page) {
    this.toast = new Toast(page);
    this.pictures = page.getByTestId('q-pics-item');
  }

  async waitUntilShown(): Promise<void> {
    await this.page.getByTestId('question-form').waitFor();
    await this.page.getByTestId('q-workmanship').locator('.adm-selector-item').first().waitFor();
  }

  async fill(q: {
    sn: string;
    workmanship: string;
    warning: string;
    description: string;
    influence: string;
  }): Promise<void> {
    await input(this.page, 'q-sn').fill(q.sn);
    await choose(this.page, 'q-workmanship', q.workmanship);
    await input(this.page, 'q-warning').fill(q.warning);
    await input(this.page, 'q-description').fill(q.description);
    await choose(this.page, 'q-influence', q.influence);
  }

  /** What the form holds: SN, alarm content, count, duration (h, m, s) and data source. */
  async values(): Promise<{
    sn: string;
    warning: string;
    count: string;
    duration: string[];
    dataFrom: string;
  }> {
    const form = this.page.getByTestId('question-form');
    return {
      sn: await input(this.page, 'q-sn').inputValue(),
      warning: await input(this.page, 'q-warning').inputValue(),
      count: await input(this.page, 'q-count').inputValue(),
      duration: await Promise.all(
        ['时', '分', '秒'].map((unit) => form.locator(`input[aria-label="${unit}"]`).inputValue()),
      ),
      dataFrom: (await this.page.getByTestId('q-data-from').textContent()) ?? '',
    };
  }

  async attachPicture(name: string, bytes: Buffer): Promise<void> {
    await this.page
      .getByTestId('q-pics-input')
      .setInputFiles({ name, mimeType: 'image/png', buffer: bytes });
    // Loaded, not only in the page: a picture taken now shows the thumbnail.
    const thumb = await this.pictures.first().locator('img').elementHandle();
    await this.page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      thumb,
      { polling: 'raf' },
    );
  }

  async save(): Promise<void> {
    await this.page.getByTestId('q-submit').tap();
  }
}

/** /faca/editFACA: the question with its FA and CA. */
export class EditFacaPage {
  readonly faCards: Locator;
  readonly caItems: Locator;

  constructor(private readonly page: Page) {
    this.faCards = page.getByTestId('fa-card');
    this.caItems = page.getByTestId('ca-info');
  }

  async waitUntilShown(): Promise<void> {
    await this.page.getByTestId('question-info').waitFor();
  }

  async addFa(description: string): Promise<void> {
    await this.page.getByTestId('add-fa').tap();
    await input(this.page, 'fa-description').fill(description);
    await this.page.getByTestId('fa-submit').tap();
    await this.faCards.first().waitFor();
  }

  async addCa(ca: { description: string; fa: string; handler: string; due: string }) {
    await this.page.getByTestId('add-ca').tap();
    await input(this.page, 'ca-description').fill(ca.description);
    await choose(this.page, 'ca-fa', ca.fa);
    await this.page.getByTestId('ca-handlers').locator('.adm-selector-item').first().waitFor();
    await choose(this.page, 'ca-handlers', ca.handler);
    await input(this.page, 'ca-due').fill(ca.due);
    await this.page.getByTestId('ca-submit').tap();
    await this.caItems.first().waitFor();
  }
}

/** /faca/task and /faca/editTask: a handler's tasks and the result form. */
export class TaskPages {
  readonly cards: Locator;
  readonly toast: Toast;

  constructor(private readonly page: Page) {
    this.cards = page.getByTestId('task-card');
    this.toast = new Toast(page);
  }

  async open(): Promise<void> {
    await this.page.goto(paths.facaTask);
    await this.cards.first().waitFor();
  }

  async openTask(text: string): Promise<void> {
    await this.cards.filter({ hasText: text }).first().tap();
    await this.page.getByTestId('task-result').waitFor();
  }

  async chooseNg(): Promise<void> {
    await choose(this.page, 'task-treatment', 'NG');
  }

  async fillNgReason(reason: string): Promise<void> {
    await input(this.page, 'task-ng-reason').fill(reason);
  }

  async submit(): Promise<void> {
    await this.page.getByTestId('task-submit').tap();
  }

  card(text: string): Locator {
    return this.cards.filter({ hasText: text }).first();
  }
}
