import { Selector } from 'antd-mobile';
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
