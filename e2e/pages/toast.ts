import type { Locator, Page } from 'playwright-core';
import { waitUntilSettled } from '../support/settle.ts';

/** antd-mobile's toast, shown over whatever screen is open. */
export class Toast {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.locator('.adm-toast-main');
  }

  /** Shown and faded in, so a picture taken now shows it clearly. */
  async waitUntilShown(): Promise<void> {
    await waitUntilSettled(this.root);
  }

  /**
   * A toast saying exactly `text` has shown, without waiting for it to settle: a step that only
   * checks what was said cannot miss a toast that another one replaced or that closed while it
   * settled.
   */
  async waitForText(text: string): Promise<void> {
    const exactly = new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    await this.root.filter({ hasText: exactly }).first().waitFor();
  }

  /** So the next picture shows the screen, not the message over it. */
  async waitUntilGone(): Promise<void> {
    await this.root.waitFor({ state: 'detached' });
  }
}
