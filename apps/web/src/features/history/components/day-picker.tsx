import { Button, DatePicker } from 'antd-mobile';
import { useState } from 'react';
import { calendarMax, calendarMin, dateOf, dayString } from '../dates.ts';

/** A day on a button; tapping opens the calendar (2014 up to today, spec section 9). */
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
      <DatePicker
        visible={open}
        title="选择日期"
        precision="day"
        min={calendarMin}
        max={calendarMax()}
        value={dateOf(value)}
        onClose={() => setOpen(false)}
        onConfirm={(date) => onChange(dayString(date))}
      />
    </>
  );
};
