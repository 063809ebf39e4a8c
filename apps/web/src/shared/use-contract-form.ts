import type { BaseSyntheticEvent } from 'react';
import {
  get,
  set,
  useForm,
  type Control,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Resolver,
} from 'react-hook-form';
import { toastFailure } from './toast.ts';

/*
 * Forms and other values checked with a contract's zod schema (the one the server runs), loaded by
 * import() on the first check: zod (≈ 25 KB gzip) and the schemas stay off the first screen.
 */

/** What a form needs of a contract's zod schema (its safeParse), without importing zod here. */
interface ContractSchema<Output> {
  safeParse(value: unknown):
    | { success: true; data: Output }
    | {
        success: false;
        error: { issues: readonly { code: string; path: PropertyKey[]; message: string }[] };
      };
}

/** A contract schema's import(). */
export type SchemaLoader<Output> = () => Promise<ContractSchema<Output>>;

/**
 * The values checked with the schema `loadSchema` gives: the parsed output, or each field's first
 * message, in the order zod found them (the contract's Chinese text as it stands).
 */
const checkWithSchema = async <Values extends FieldValues, Output>(
  loadSchema: SchemaLoader<Output>,
  input: unknown,
): Promise<{ valid: true; values: Output } | { valid: false; errors: FieldErrors<Values> }> => {
  const result = (await loadSchema()).safeParse(input);
  if (result.success) return { valid: true, values: result.data };
  const errors: FieldErrors<Values> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.') || 'root';
    if (get(errors, path) === undefined)
      set(errors, path, { type: issue.code, message: issue.message });
  }
  return { valid: false, errors };
};

/**
 * A react-hook-form resolver that checks the values with the schema `loadSchema` gives. Each field
 * gets the first message zod gives for it, in the
 * order zod found them: the contract's Chinese text as it stands (@hookform/resolvers' zodResolver
 * swaps a union's own message for one of its branches', zod's English default for a number).
 * `toInput` maps the form's values to what the schema checks (a request body) when the two differ;
 * the submit handler then receives the parsed body.
 */
export const lazySchemaResolver =
  <Values extends FieldValues, Output>(
    loadSchema: SchemaLoader<Output>,
    toInput: (values: Values) => unknown = (values) => values,
  ): Resolver<Values, unknown, Output> =>
  async (values) => {
    const result = await checkWithSchema<Values, Output>(loadSchema, toInput(values));
    return result.valid
      ? { values: result.values, errors: {} }
      : { values: {}, errors: result.errors };
  };

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

/** How a contract form shows a refusal: a toast of its first message. */
const toastFirstMessage = (errors: FieldErrors): void =>
  toastFailure(firstMessage(errors) ?? '参数错误');

/**
 * The same check and toast as a contract form's submit (useContractForm) for values no form
 * holds (a name typed in a dialog, the phone a code is sent to): the parsed request, or null.
 * A page with no form loads this module by import() with the schema: react-hook-form stays off
 * its first screen.
 */
export const checkWithContract = async <Body>(
  loadSchema: SchemaLoader<Body>,
  input: unknown,
): Promise<Body | null> => {
  const result = await checkWithSchema(loadSchema, input);
  if (result.valid) return result.values;
  toastFirstMessage(result.errors);
  return null;
};

interface ContractFormOptions<Values extends FieldValues, Body> {
  defaultValues: DefaultValues<Values>;
  /** The contract's schema of the request, by import(): zod loads with the first submit. */
  loadSchema: SchemaLoader<Body>;
  /** The request the form's values make, as the schema checks it (the values themselves if absent). */
  toBody?: (values: Values) => unknown;
  /** Called with the parsed request once the schema accepts it. */
  onValid: (body: Body) => void;
}

/**
 * A form checked on submit with the contract's schema (the server runs the same one): the first
 * Chinese message is toasted and nothing is sent, or `onValid` gets the parsed request.
 */
export const useContractForm = <Values extends FieldValues, Body>({
  defaultValues,
  loadSchema,
  toBody,
  onValid,
}: ContractFormOptions<Values, Body>) => {
  const form = useForm<Values, unknown, Body>({
    defaultValues,
    resolver: lazySchemaResolver(loadSchema, toBody),
    // The messages are toasted; focusing a field would open the phone's keyboard over them.
    shouldFocusError: false,
  });
  const submit = form.handleSubmit(onValid, toastFirstMessage);
  return {
    form,
    // For inputs typed for a form whose submit gets its own values (list-form.tsx's FormInput):
    // a control only reads and writes fields, never what the resolver makes of them.
    control: form.control as unknown as Control<Values>,
    submit: (event?: BaseSyntheticEvent) => void submit(event),
  };
};
