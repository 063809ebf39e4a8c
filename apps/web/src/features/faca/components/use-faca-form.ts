import type { Endpoint } from '@linewatch/contracts/endpoint';
import { facaMessages } from '@linewatch/contracts/faca-labels';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import type { SchemaLoader } from '../../../shared/use-contract-form.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import { useContractForm } from '../../../shared/use-contract-form.ts';
import { useSave } from '../api.ts';

interface FacaFormOptions<Values extends FieldValues, Input, Reply, Body extends Input> {
  defaultValues: DefaultValues<Values>;
  endpoint: Endpoint<Input, Reply>;
  /** The contract's schema of the request, by import(): zod loads with the first save. */
  loadSchema: SchemaLoader<Body>;
  /** The request the form's values make, as the schema checks it. */
  toBody: (values: Values) => unknown;
  onSaved: (reply: Reply) => void;
}

/**
 * A FACA form (a contract form, use-contract-form.ts): 保存 sends the checked request, toasts
 * 保存成功 and calls `onSaved`. A refusal was toasted by the API client.
 */
export const useFacaForm = <Values extends FieldValues, Input, Reply, Body extends Input>({
  defaultValues,
  endpoint,
  loadSchema,
  toBody,
  onSaved,
}: FacaFormOptions<Values, Input, Reply, Body>) => {
  const save = useSave(endpoint);
  const { form, submit } = useContractForm<Values, Body>({
    defaultValues,
    loadSchema,
    toBody,
    onValid: (body) => {
      save.mutateAsync(body).then(
        (reply) => {
          toastSuccess(facaMessages.saved);
          onSaved(reply);
        },
        () => undefined,
      );
    },
  });
  return { form, pending: save.isPending, submit: () => submit() };
};
