import { Input } from 'antd-mobile';
import { useId } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import styles from './maintenance-form.module.css';

interface TextFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  label: string;
  placeholder: string;
  error: string | undefined;
  maxLength?: number;
  inputMode?: 'numeric' | undefined;
  testId: string;
}

/** One labelled input of the bind / unbind form, with its message under it. */
export const TextField = <T extends FieldValues>({
  control,
  name,
  label,
  placeholder,
  error,
  maxLength,
  inputMode,
  testId,
}: TextFieldProps<T>) => {
  const labelId = useId();
  return (
    <>
      <label className={styles.field}>
        <span className={styles.label} id={labelId}>
          {label}
        </span>
        <Controller
          name={name}
          control={control}
          render={({ field }) => (
            <Input
              className={styles.input}
              data-testid={testId}
              // Named by the label alone: the clear button inside the label is not its name.
              aria-label={label}
              placeholder={placeholder}
              clearable
              maxLength={maxLength}
              inputMode={inputMode}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
      </label>
      {/* Named by its field: a screen reader says which field the message is about. */}
      <div
        className={styles.error}
        data-testid={`${testId}-error`}
        role="alert"
        aria-labelledby={labelId}
      >
        {error}
      </div>
    </>
  );
};
