import type { Endpoint } from '@linewatch/contracts/endpoint';
import { facaMessages } from '@linewatch/contracts/faca-labels';
import { useForm, type DefaultValues, type FieldErrors, type FieldValues } from 'react-hook-form';
import { lazySchemaResolver } from '../../../shared/lazy-schema-resolver.ts';
import { toastFailure, toastSuccess } from '../../../shared/toast.ts';
import { useSave } from '../api.ts';

/** The first problem's message: the errors keep the order in which the schema found them. */
const firstMessage = (errors: FieldErrors): string | undefined => {
  for (const error of Object.values(errors)) {
    if (!error || typeof error !== 'object') continue;
    // A field's error has a type; an object's or an array's holds its fields' errors.
    const found = 'type' in error ? error.message : firstMessage(error as FieldErrors);
    if (typeof found === 'string' && found) return found;
  }
  return undefined;
};

interface FacaFormOptions<Values extends FieldValues, Input, Reply, Body extends Input> {
  defaultValues: DefaultValues<Values>;
  endpoint: Endpoint<Input, Reply>;
  /** The contract's schema of the request, by import(): zod loads with the first save. */
  loadSchema: Parameters<typeof lazySchemaResolver<Values, Body>>[0];
  /** The request the form's values make, as the schema checks it. */
  toBody: (values: Values) => unknown;
  onSaved: (reply: Reply) => void;
}

/**
 * A FACA form: react-hook-form holds the values; 保存 checks them with the contract's schema (the
 * server runs the same one) and toasts the first Chinese message, or sends them, toasts 保存成功
 * and calls `onSaved`. A refusal was toasted by the API client.
 */
export const useFacaForm = <Values extends FieldValues, Input, Reply, Body extends Input>({
  defaultValues,
  endpoint,
  loadSchema,
  toBody,
  onSaved,
}: FacaFormOptions<Values, Input, Reply, Body>) => {
  const save = useSave(endpoint);
  const form = useForm<Values, unknown, Body>({
    defaultValues,
    resolver: lazySchemaResolver(loadSchema, toBody),
    // The messages are toasted; focusing a field would open the phone's keyboard over them.
    shouldFocusError: false,
  });
  const submit = form.handleSubmit(
    (body) => {
      save.mutateAsync(body).then(
        (reply) => {
          toastSuccess(facaMessages.saved);
          onSaved(reply);
        },
        () => undefined,
      );
    },
    (errors) => toastFailure(firstMessage(errors) ?? '参数错误'),
  );
  return { form, pending: save.isPending, submit: () => void submit() };
};
