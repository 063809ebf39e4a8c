import { Button } from 'antd-mobile';
import { lazy, useState } from 'react';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';

const DayCalendar = lazy(() =>
  import('./day-calendar.tsx').then(({ DayCalendar }) => ({ default: DayCalendar })),
);

/** A day on a button; tapping opens the calendar. */
export const DayPicker = ({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (day: string) => void;
  testId: string;
}) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid={testId}>
        {value}
      </Button>
      <OnFirstOpen open={open}>
        <DayCalendar open={open} value={value} onClose={() => setOpen(false)} onChange={onChange} />
      </OnFirstOpen>
    </>
  );
};
