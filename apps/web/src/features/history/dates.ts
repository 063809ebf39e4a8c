import {
  CALENDAR_MAX_YEAR,
  CALENDAR_MIN_YEAR,
  DEFAULT_RANGE_DAYS,
} from '@linewatch/contracts/rules/range';

/** Calendar days as YYYY-MM-DD in the phone's time zone (the factory's, on the shop floor). */
const pad = (n: number) => String(n).padStart(2, '0');
export const dayString = (d: Date): string =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
export const dateOf = (day: string): Date => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d);
};
export const addDays = (day: string, n: number): string => {
  const d = dateOf(day);
  d.setDate(d.getDate() + n);
  return dayString(d);
};

export const today = (now = new Date()): string => dayString(now);
/** docs/product.md section 9: the day view opens on yesterday, the range view on the last 7 days. */
export const defaultDay = (now = new Date()): string => addDays(today(now), -1);
export const defaultRange = (now = new Date()): { from: string; to: string } => ({
  from: addDays(today(now), -DEFAULT_RANGE_DAYS),
  to: addDays(today(now), -1),
});

/** The calendar's bounds: 2014 to 2050, and never after today. */
export const calendarMin = new Date(CALENDAR_MIN_YEAR, 0, 1);
export const calendarMax = (now = new Date()): Date => {
  const end = new Date(CALENDAR_MAX_YEAR, 11, 31);
  return now < end ? now : end;
};
