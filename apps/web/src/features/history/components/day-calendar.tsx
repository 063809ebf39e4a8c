import { DatePicker } from 'antd-mobile';
import { calendarMax, calendarMin, dateOf, dayString } from '../dates.ts';

/** The calendar behind a DayPicker (2014 up to today, docs/product.md section 9), loaded when first opened. */
export const DayCalendar = ({
  open,
  value,
  onClose,
  onChange,
}: {
  open: boolean;
  value: string;
  onClose: () => void;
  onChange: (day: string) => void;
}) => (
  <DatePicker
    visible={open}
    title="选择日期"
    precision="day"
    min={calendarMin}
    max={calendarMax()}
    value={dateOf(value)}
    onClose={onClose}
    onConfirm={(date) => onChange(dayString(date))}
  />
);
