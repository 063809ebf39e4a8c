import { facaMessages } from '@linewatch/contracts/faca-labels';
import type { Endpoint } from '@linewatch/contracts/endpoint';
import { toastFailure, toastSuccess } from '../../../shared/toast.ts';
import { useSave } from '../api.ts';

/** What the page needs of a contract schema (zod's safeParse), without importing zod here. */
interface Schema<T> {
  safeParse(
    values: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

/**
 * Checks a form with the contract's schema (the server runs the same one): the parsed input, or
 * null after toasting the first Chinese message.
 */
const validated = <T>(schema: Schema<T>, values: unknown): T | null => {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  toastFailure(result.error.issues[0]?.message ?? '参数错误');
  return null;
};

/**
 * The save of a FACA form: the values checked by the contract's schema (nothing is sent when a
 * message was toasted), sent, 保存成功, then `onSaved`. A refusal was toasted by the client. The
 * schema comes by `loadSchema` (an import()): zod loads with the first save, not with the page.
 */
export const useFormSave = <Input, Reply, Parsed extends Input>(
  endpoint: Endpoint<Input, Reply>,
  loadSchema: () => Promise<Schema<Parsed>>,
  onSaved: (reply: Reply) => void,
) => {
  const save = useSave(endpoint);
  return {
    pending: save.isPending,
    submit: async (values: unknown) => {
      const body = validated(await loadSchema(), values);
      if (!body) return;
      save.mutateAsync(body).then(
        (reply) => {
          toastSuccess(facaMessages.saved);
          onSaved(reply);
        },
        () => undefined,
      );
    },
  };
};
