const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' of a Date in the phone's time zone (what the server's query takes). */
export const formatDateTime = (d: Date): string =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
  `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/**
 * docs/product.md section 9: the search starts at 08:00 today (yesterday before 08:00, so the range is the
 * current shift) and ends now.
 */
export const defaultRange = (now: Date): { start: string; end: string } => {
  const start = new Date(now);
  start.setHours(8, 0, 0, 0);
  if (now.getHours() < 8) start.setDate(start.getDate() - 1);
  return { start: formatDateTime(start), end: formatDateTime(now) };
};

/**
 * <input type="datetime-local"> speaks 'YYYY-MM-DDTHH:mm[:ss[.sss]]' (seconds dropped when zero);
 * the query 'YYYY-MM-DD HH:mm:ss'.
 */
export const fromInput = (value: string): string => {
  if (!value) return '';
  const text = value.replace('T', ' ').slice(0, 19);
  return text.length === 16 ? `${text}:00` : text;
};
export const toInput = (value: string): string => value.replace(' ', 'T');
