import { List } from 'antd-mobile';
import { createContext, useContext, type ReactNode } from 'react';
import styles from './list-form.module.css';

type Layout = 'horizontal' | 'vertical';

const LayoutContext = createContext<Layout>('vertical');

/**
 * A form laid out as antd-mobile's Form lays it out (a List of labelled items), for forms whose
 * values react-hook-form holds: antd-mobile's Form brings rc-field-form and async-validator
 * (≈ 30 KB gzip) to every page that shows one. Enter in a field does not submit: a form is saved
 * by its button.
 */
export const ListForm = ({
  layout = 'vertical',
  children,
  testId,
}: {
  layout?: Layout;
  children: ReactNode;
  testId?: string;
}) => (
  <form
    className={styles.form}
    noValidate
    data-testid={testId}
    onSubmit={(event) => event.preventDefault()}
  >
    <LayoutContext.Provider value={layout}>
      <List>{children}</List>
    </LayoutContext.Provider>
  </form>
);

/**
 * One labelled item of a ListForm (antd-mobile Form.Item's look): the label beside the input
 * (horizontal) or above it (vertical). No asterisk: Form.Item shows one only for a field it
 * validates itself (a `name` with rules), and the forms moved here had none.
 */
export const ListFormItem = ({
  label,
  layout,
  children,
}: {
  label: string;
  /** The form's layout unless given. */
  layout?: Layout;
  children: ReactNode;
}) => {
  const inherited = useContext(LayoutContext);
  const mode = layout ?? inherited;
  const labelElement = <label className={styles.label}>{label}</label>;
  return (
    <List.Item
      className={styles[mode]}
      title={mode === 'vertical' ? labelElement : undefined}
      prefix={mode === 'horizontal' ? labelElement : undefined}
    >
      <div className={styles.child}>
        <div>{children}</div>
      </div>
    </List.Item>
  );
};
