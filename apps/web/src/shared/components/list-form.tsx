import { Input, List, type InputProps } from 'antd-mobile';
import type { FormEvent, ReactNode } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import styles from './list-form.module.css';

/**
 * A react-hook-form form laid out as antd-mobile's Form lays one out (a List under its header,
 * the submit below), without rc-field-form and async-validator (≈ 31 KB gzip).
 */
export const ListForm = ({
  header,
  footer,
  onSubmit,
  children,
}: {
  header?: ReactNode;
  footer: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) => (
  <form className={styles.form} noValidate onSubmit={onSubmit}>
    <List header={header}>{children}</List>
    <div className={styles.footer}>{footer}</div>
  </form>
);

/** One field of a ListForm: its label above it (vertical) or before it (horizontal). */
export const ListFormItem = ({
  label,
  layout = 'vertical',
  extra,
  disabled,
  children,
}: {
  label?: string;
  layout?: 'vertical' | 'horizontal';
  extra?: ReactNode;
  disabled?: boolean;
  children: ReactNode;
}) => {
  const labelElement = label ? <label className={styles.label}>{label}</label> : undefined;
  return (
    <List.Item
      className={`${styles.item} ${styles[layout]}`}
      title={layout === 'vertical' ? labelElement : undefined}
      prefix={layout === 'horizontal' ? labelElement : undefined}
      extra={extra}
      disabled={disabled}
    >
      <div className={styles.child}>
        <div>{children}</div>
      </div>
    </List.Item>
  );
};

/** antd-mobile's Input holding a text field of a react-hook-form form. */
export const FormInput = <T extends FieldValues>({
  control,
  name,
  ...input
}: { control: Control<T>; name: Path<T> } & Omit<InputProps, 'value' | 'onChange' | 'onBlur'>) => (
  <Controller
    name={name}
    control={control}
    render={({ field }) => (
      <Input {...input} value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
    )}
  />
);
