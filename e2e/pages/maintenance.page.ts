import type { Locator, Page } from 'playwright-core';
import { Toast } from './toast.ts';

/** /bindDevice and /unboundDevice: the technician's forms that bind a machine to a gateway. */
export class MaintenancePage {
  readonly toast: Toast;
  readonly submitButton: Locator;

  constructor(
    private readonly page: Page,
    private readonly form: 'bind' | 'unbind',
  ) {
    this.toast = new Toast(page);
    this.submitButton = page.getByTestId(`${form}-submit`);
  }

  /** An input by its test id's last part: sn, serial, plc-ip, iot-ip1, iot-ip2. */
  input(field: string): Locator {
    const id = `[data-testid="${this.form}-${field}"]`;
    // antd-mobile puts the test id on the input's wrapper.
    return this.page.locator(`${id} input, input${id}`);
  }

  async waitUntilShown(): Promise<void> {
    await this.submitButton.waitFor();
  }

  async fill(values: Record<string, string>): Promise<void> {
    for (const [field, value] of Object.entries(values)) await this.input(field).fill(value);
  }

  async chooseModel(label: string): Promise<void> {
    await this.page.getByTestId('bind-plc-model').getByText(label, { exact: true }).tap();
  }

  async submit(): Promise<void> {
    await this.submitButton.tap();
  }

  /** The message under each field that has one, by field. */
  async errors(): Promise<Record<string, string>> {
    const found: Record<string, string> = {};
    for (const node of await this.page
      .locator(`[data-testid^="${this.form}-"][role="alert"]`)
      .all()) {
      const text = ((await node.textContent()) ?? '').trim();
      const field = ((await node.getAttribute('data-testid')) ?? '')
        .replace(`${this.form}-`, '')
        .replace(/-error$/, '');
      if (text) found[field] = text;
    }
    return found;
  }

  async values(): Promise<string[]> {
    return Promise.all(
      (
        await this.page
          .locator(`[data-testid^="${this.form}-"] input, input[data-testid^="${this.form}-"]`)
          .all()
      ).map((input) => input.inputValue()),
    );
  }

  async isLoading(): Promise<boolean> {
    return (await this.submitButton.getAttribute('class'))?.includes('adm-button-loading') ?? false;
  }
}
