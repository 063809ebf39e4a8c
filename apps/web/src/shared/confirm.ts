import { webMessages } from './messages.ts';
import { toastInfo } from './toast.ts';

/** Asks before an action; a cancel says 取消操作 (docs/product.md section 8). Resolves whether to go on. */
export const confirmAction = async (content: string): Promise<boolean> => {
  const { Dialog } = await import('./imperative-ui.ts');
  const confirmed = await Dialog.confirm({ content });
  if (!confirmed) toastInfo(webMessages.cancelled);
  return confirmed;
};
