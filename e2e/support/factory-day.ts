/**
 * The factory's calendar as the phone (Asia/Shanghai, support/browser.ts) and the demo server
 * (its default TIMEZONE) keep it.
 */
const shanghai = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' });
const shanghaiHour = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Shanghai',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** A factory day (YYYY-MM-DD), n days before today. */
export const daysAgo = (n: number): string => shanghai.format(Date.now() - n * 86_400_000);

/**
 * The day whose minute-by-minute demo history (the last 24 hours before the seed) spans the
 * longer part: today from noon on, yesterday before. Its alarms have begun and ended (those of
 * a day wholly before the window are hours and day totals with a few alarms, early in the night
 * the day has hardly begun).
 */
export const dayWithMinuteHistory = (): string =>
  Number(shanghaiHour.format(Date.now())) >= 12 ? daysAgo(0) : daysAgo(1);
