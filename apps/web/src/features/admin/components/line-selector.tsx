import { Selector } from 'antd-mobile';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useLinesQuery } from '../api.ts';

/** Production lines to grant, several at once. */
export const LineSelector = ({
  value,
  onChange,
}: {
  value?: number[];
  onChange?: (value: number[]) => void;
}) => {
  const lines = useLinesQuery().data ?? [];
  return (
    <Selector
      multiple
      columns={2}
      options={lines.map((l) => ({ label: l.name, value: l.id }))}
      value={value ?? []}
      onChange={(v) => onChange?.(v)}
      data-testid="line-selector"
    />
  );
};

/** The line selector holding the `lineIds` of a react-hook-form form. */
export const LineIdsField = <T extends FieldValues & { lineIds: number[] }>({
  control,
}: {
  control: Control<T>;
}) => (
  <Controller
    name={'lineIds' as Path<T>}
    control={control}
    render={({ field }) => <LineSelector value={field.value} onChange={field.onChange} />}
  />
);
