import { TextArea, type TextAreaProps } from 'antd-mobile';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';

/** antd-mobile's TextArea, growing with its text, holding a text field of a react-hook-form form. */
export const FormTextArea = <T extends FieldValues, Output>({
  control,
  name,
  ...textArea
}: { control: Control<T, unknown, Output>; name: Path<T> } & Omit<
  TextAreaProps,
  'value' | 'onChange'
>) => (
  <Controller
    name={name}
    control={control}
    render={({ field }) => (
      <TextArea autoSize {...textArea} value={field.value} onChange={field.onChange} />
    )}
  />
);
