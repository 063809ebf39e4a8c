import type { BindMessage, UnbindMessage } from '@linewatch/contracts/gateways';
import { GATEWAY_SERIAL_LENGTH } from '@linewatch/contracts/limits';
import { Button, NavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import {
  useForm,
  type Control,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormGetValues,
  type UseFormSetValue,
} from 'react-hook-form';
import { lazySchemaResolver, type SchemaLoader } from '../../../shared/use-contract-form.ts';
import { useMaintenance } from '../use-maintenance.ts';
import styles from './maintenance-form.module.css';
import { TextField } from './text-field.tsx';
import { useGoBack } from '../../../shared/use-go-back.ts';

/** One text input of a maintenance form; `testId` names the input and its message. */
interface TextFieldSpec<T extends FieldValues> {
  name: Path<T>;
  label: string;
  placeholder: string;
  maxLength?: number;
  /** 'numeric': a phone shows its digit keyboard. */
  inputMode?: 'numeric';
  testId: string;
}

/** The two fields both forms start with: the machine's SN code and the gateway's serial. */
export const machineAndGatewayFields = <T extends FieldValues & { snCode: string; iotId: string }>(
  prefix: 'bind' | 'unbind',
  serialPlaceholder: string,
): TextFieldSpec<T>[] => [
  {
    name: 'snCode' as Path<T>,
    label: '机台SN码',
    placeholder: '请输入机台SN码',
    testId: `${prefix}-sn`,
  },
  {
    name: 'iotId' as Path<T>,
    label: '网关序列号',
    placeholder: serialPlaceholder,
    maxLength: GATEWAY_SERIAL_LENGTH,
    testId: `${prefix}-serial`,
  },
];

interface MaintenanceFormProps<T extends FieldValues> {
  title: string;
  empty: T;
  /** The form's contract schema, by import(): zod comes with the first submit, not the page. */
  loadSchema: SchemaLoader<T>;
  fields: TextFieldSpec<T>[];
  /** The gateway whose socket to open and the message to send it. */
  command: (form: T) => { serial: string; message: BindMessage | UnbindMessage };
  submit: { label: string; color: 'primary' | 'danger'; testId: string };
  /** Inputs after the text fields (the bind form's PLC model picker). */
  children?: (form: {
    control: Control<T>;
    errors: FieldErrors<T>;
    setValue: UseFormSetValue<T>;
    getValues: UseFormGetValues<T>;
  }) => ReactNode;
}

/**
 * The bind and unbind pages (docs/product.md sections 3, 4, 5): a form validated on submit, whose command
 * goes to the gateway's maintenance socket (use-maintenance.ts); Code 200 clears the form.
 */
export const MaintenanceForm = <T extends FieldValues>({
  title,
  empty,
  loadSchema,
  fields,
  command,
  submit,
  children,
}: MaintenanceFormProps<T>) => {
  const goBack = useGoBack();
  const {
    control,
    handleSubmit,
    reset,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<T, unknown, T>({
    resolver: lazySchemaResolver(loadSchema),
    defaultValues: empty as DefaultValues<T>,
  });
  const maintenance = useMaintenance(() => reset(empty));

  return (
    <div className={styles.page}>
      <NavBar onBack={goBack} style={{ background: '#fff' }}>
        {title}
      </NavBar>
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) =>
          void handleSubmit((form) => {
            const { serial, message } = command(form);
            return maintenance.send(serial, message);
          })(event)
        }
      >
        {fields.map((field) => (
          <TextField
            key={field.testId}
            control={control}
            name={field.name}
            label={field.label}
            placeholder={field.placeholder}
            maxLength={field.maxLength}
            inputMode={field.inputMode}
            error={errors[field.name]?.message as string | undefined}
            testId={field.testId}
          />
        ))}
        {children?.({ control, errors, setValue, getValues })}
        <Button
          className={styles.submit}
          data-testid={submit.testId}
          block
          color={submit.color}
          size="large"
          type="submit"
          loading={maintenance.pending}
        >
          {submit.label}
        </Button>
      </form>
    </div>
  );
};
