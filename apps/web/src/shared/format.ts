const trimmed = (value: number, digits: number): string => String(Number(value.toFixed(digits)));

/** What a figure with no data (null on the wire: a ratio with no denominator) shows. */
export const NO_DATA = '—';

/** 98.456 → "98.46%" ; 100 → "100%" ; null → "—" */
export const formatPercent = (value: number | null, digits = 2): string => {
  if (value === null) return NO_DATA;
  return Number.isFinite(value) ? `${trimmed(value, digits)}%` : '--';
};

/** Counts stay whole, rates keep at most two decimals; null → "—". */
export const formatNumber = (value: number | null, digits = 2): string => {
  if (value === null) return NO_DATA;
  return Number.isFinite(value) ? trimmed(value, digits) : '--';
};

const pad = (n: number): string => String(n).padStart(2, '0');

/** Seconds → HH:mm:ss; hours keep counting past 24. */
export const formatDuration = (totalSeconds: number): string => {
  const seconds = Number.isFinite(totalSeconds) ? Math.max(0, Math.floor(totalSeconds)) : 0;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${pad(h)}:${pad(m)}:${pad(seconds % 60)}`;
};

/** A clock time, HH:mm:ss in the phone's time zone (the list's "更新于" stamp). */
export const formatClock = (epochMs: number): string => {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

/** An ISO instant as the phone's local date and time, 2026-11-22 08:05. */
export const formatDateTime = (iso: string): string => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** How old data is, as the offline banner says it: 刚刚, 3分钟前, 2小时前, 5天前. */
export const formatAge = (ageMs: number): string => {
  const minutes = Math.floor(Math.max(0, ageMs) / 60_000);
  if (minutes < 1) return '刚刚';
  if (minutes < 60) return `${minutes}分钟前`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours}小时前` : `${Math.floor(hours / 24)}天前`;
};
