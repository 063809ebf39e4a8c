import { get, set, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form';

/** What a form needs of a contract's zod schema (its safeParse), without importing zod here. */
interface ContractSchema<Output> {
  safeParse(value: unknown):
    | { success: true; data: Output }
    | {
        success: false;
        error: { issues: readonly { code: string; path: PropertyKey[]; message: string }[] };
      };
}

/**
 * A react-hook-form resolver that checks the values with a contract's zod schema (the one the
 * server runs), loaded by `loadSchema` (an import()) on the first check: zod (≈ 25 KB gzip) and the
 * schemas stay off the first screen. Each field gets the first message zod gives for it, in the
 * order zod found them: the contract's Chinese text as it stands (@hookform/resolvers' zodResolver
 * swaps a union's own message for one of its branches', zod's English default for a number).
 * `toInput` maps the form's values to what the schema checks (a request body) when the two differ;
 * the submit handler then receives the parsed body.
 */
export const lazySchemaResolver =
  <Values extends FieldValues, Output>(
    loadSchema: () => Promise<ContractSchema<Output>>,
    toInput: (values: Values) => unknown = (values) => values,
  ): Resolver<Values, unknown, Output> =>
  async (values) => {
    const result = (await loadSchema()).safeParse(toInput(values));
    if (result.success) return { values: result.data, errors: {} };
    const errors: FieldErrors<Values> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.') || 'root';
      if (get(errors, path) === undefined)
        set(errors, path, { type: issue.code, message: issue.message });
    }
    return { values: {}, errors };
  };
