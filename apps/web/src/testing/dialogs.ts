import { fireEvent, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';

/*
 * antd-mobile's dialogs fade out after an answer and stay in the page meanwhile, and a new one
 * appears only once its module has loaded (shared/imperative-ui.ts). So a test that asks the
 * same question twice answers the dialog that was not there before its tap:
 *   const before = dialogsNow(); tap…; answerDialog(await newDialog(before, question), '确定');
 */
export const dialogsNow = (): Set<HTMLElement> => new Set(screen.queryAllByRole('dialog'));

export const newDialog = (before: Set<HTMLElement>, words: string): Promise<HTMLElement> =>
  vi.waitFor(() => {
    const fresh = screen.queryAllByRole('dialog').find((node) => !before.has(node));
    expect(fresh?.textContent).toContain(words);
    return fresh!;
  });

/** Taps one of the dialog's buttons: it may still be fading in (pointer-events: none). */
export const answerDialog = (dialog: HTMLElement, button: string): void => {
  fireEvent.click(within(dialog).getByRole('button', { name: button }));
};
