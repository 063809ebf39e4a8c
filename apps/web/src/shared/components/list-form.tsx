import { Input, List, type InputProps } from 'antd-mobile';
import {
  createContext,
  useContext,
  useId,
  type CSSProperties,
  type FormEvent,
  type ReactNode,
} from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import styles from './list-form.module.css';

type Layout = 'horizontal' | 'vertical';

const LayoutContext = createContext<Layout>('vertical');

/** Form's paddings (wider on the left than a plain List's), as List's CSS variables. */
const LIST_PADDING = { '--padding-left': '16px', '--padding-right': '12px' } as CSSProperties;

/**
 * A react-hook-form form laid out as antd-mobile's Form lays one out (a List of labelled items
 * under its header, the footer below), without rc-field-form and async-validator (≈ 31 KB gzip on
 * every page that showed one). Without `onSubmit`, Enter in a field does not submit: the form is
 * saved by its button.
 */
export const ListForm = ({
  layout = 'vertical',
  header,
  footer,
  onSubmit,
  testId,
  children,
}: {
  layout?: Layout;
  header?: ReactNode;
  footer?: ReactNode;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  testId?: string;
  children: ReactNode;
}) => (
  <form
    className={styles.form}
    noValidate
    data-testid={testId}
    onSubmit={onSubmit ?? ((event) => event.preventDefault())}
  >
    <LayoutContext.Provider value={layout}>
      <List header={header} style={LIST_PADDING}>
        {children}
      </List>
    </LayoutContext.Provider>
    {footer ? <div className={styles.footer}>{footer}</div> : null}
  </form>
);

/**
 * One labelled item of a ListForm (antd-mobile Form.Item's look): the label above the input
 * (vertical) or before it (horizontal), the form's layout unless given. No asterisk: Form.Item
 * shows one only for a field it validates itself, and the forms moved here had none.
 */
export const ListFormItem = ({
  label,
  layout,
  extra,
  disabled,
  children,
}: {
  label?: string;
  layout?: Layout;
  extra?: ReactNode;
  disabled?: boolean;
  children: ReactNode;
}) => {
  const inherited = useContext(LayoutContext);
  const mode = layout ?? inherited;
  const labelId = useId();
  const labelElement = label ? (
    <label className={styles.label} id={labelId}>
      {label}
    </label>
  ) : undefined;
  return (
    <List.Item
      className={`${styles.item} ${styles[mode]}`}
      title={mode === 'vertical' ? labelElement : undefined}
      prefix={mode === 'horizontal' ? labelElement : undefined}
      extra={extra ? <div className={styles.extra}>{extra}</div> : undefined}
      disabled={disabled}
    >
      {/* The label names what the item holds (one input or several, or a read-only value). */}
      <div
        className={styles.child}
        role={label ? 'group' : undefined}
        aria-labelledby={label ? labelId : undefined}
      >
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
