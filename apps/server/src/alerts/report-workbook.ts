import type { ReportReply } from '@linewatch/contracts/alerts';
import ExcelJS from 'exceljs';

/** The xlsx media type, sent with the workbook so a browser names and opens it as one. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const kindOf = (r: ReportReply) => (r.pageType === 'date' ? '日报' : '周报');

/** What the report covers: its day, or its first and last day. */
const periodOf = (r: ReportReply) =>
  r.beginTime === r.endTime ? r.beginTime : `${r.beginTime} 至 ${r.endTime}`;

/**
 * Content-Disposition of the download, named by machine, kind and day: the Chinese name
 * (`LW-S1-001-周报-2026-03-08.xlsx`) in RFC 5987's filename*, an ASCII one
 * (`LW-S1-001-weekly-2026-03-08.xlsx`) in filename for a client that reads only that one, so
 * none falls back to a bare "download".
 */
export const reportDisposition = (r: ReportReply) => {
  const name = `${r.snCode}-${kindOf(r)}-${r.endTime}.xlsx`;
  const ascii =
    `${r.snCode}-${r.pageType === 'date' ? 'daily' : 'weekly'}-${r.endTime}.xlsx`.replace(
      /[^\x20-\x7e]|["\\]/g,
      '',
    );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

/** An Excel date of a calendar day (and hour): exceljs stores a Date as its UTC wall time. */
const excelDate = (day: string, hhmm = '00:00') => new Date(`${day}T${hhmm}:00Z`);

/** Display width of a value in Excel's character units: a CJK character is two. */
const widthOf = (text: string) =>
  [...text].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? 2 : 1), 0);

// At least 10: exceljs writes no width for 9 (its default), and a reader's default is narrower.
const MIN_WIDTH = 10;
const MAX_WIDTH = 60;

interface Column {
  header: string;
  /** Excel number format; a date column's values are Dates shown this way. */
  numFmt?: string;
}

/**
 * One sheet: a title row naming the machine and the period, a bold header row, then the rows;
 * each column as wide as its widest header or value (shown form).
 */
const addSheet = (
  book: ExcelJS.Workbook,
  name: string,
  title: string,
  columns: Column[],
  rows: (string | number | Date | null)[][],
) => {
  const sheet = book.addWorksheet(name, {
    views: [{ state: 'frozen', ySplit: 2 }],
    // Printed (or made a PDF) one page wide: 人工描述 stays beside its alarm.
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  sheet.addRow([title]);
  sheet.mergeCells(1, 1, 1, columns.length);
  sheet.getRow(1).font = { bold: true, size: 12 };
  sheet.addRow(columns.map((c) => c.header));
  sheet.getRow(2).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  columns.forEach((c, i) => {
    const column = sheet.getColumn(i + 1);
    if (c.numFmt) column.numFmt = c.numFmt;
    const shown = rows.map((row) => {
      const v = row[i];
      if (v instanceof Date) return c.numFmt ?? 'yyyy-mm-dd';
      return v === null || v === undefined ? '' : String(v);
    });
    const widest = Math.max(widthOf(c.header), ...shown.map(widthOf));
    column.width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + 2));
  });
  return sheet;
};

/**
 * The report as a workbook, one sheet per tab as the page shows it: periods as real Excel dates
 * (a day's hours as date-times), ratios in percent, and each alarm with the manual's advice.
 */
export const reportWorkbook = async (r: ReportReply): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  const machine = [r.snCode, r.nickSnCode && r.nickSnCode !== r.snCode ? `(${r.nickSnCode})` : '']
    .join('')
    .concat(r.deviceName ? ` ${r.deviceName}` : '');
  const title = `${machine} ${kindOf(r)} ${periodOf(r)}`;
  const byHour = r.pageType === 'date';
  const dateColumn: Column = byHour
    ? { header: '时间', numFmt: 'yyyy-mm-dd hh:mm' }
    : { header: '日期', numFmt: 'yyyy-mm-dd' };
  const when = (label: string) => (byHour ? excelDate(r.endTime, label) : excelDate(label));

  addSheet(
    book,
    '三参数',
    title,
    [
      dateColumn,
      { header: 'PPM' },
      { header: 'PPM目标' },
      { header: '良率(%)' },
      { header: '良率目标(%)' },
      { header: '稼动率(%)' },
      { header: '稼动率目标(%)' },
    ],
    r.threeParam.map((p) => [
      when(p.date),
      p.ppm,
      r.targets.ppmTarget,
      p.yield,
      r.targets.yieldTarget,
      p.activation,
      r.targets.useRateTarget,
    ]),
  );
  addSheet(
    book,
    'DT',
    title,
    [dateColumn, { header: 'DT(分钟)' }],
    r.dt.map((p) => [when(p.date), p.value]),
  );
  addSheet(
    book,
    '报警记录',
    title,
    [
      { header: '报警代码' },
      { header: '描述' },
      { header: '次数' },
      { header: '时长(分钟)' },
      { header: '占比(%)' },
      { header: '人工描述' },
    ],
    r.dtTop.map((a) => [a.code, a.description, a.times, a.duration, a.percentage, a.artificialDes]),
  );
  return Buffer.from(await book.xlsx.writeBuffer());
};
