import { adminMessages, type AdminMachine } from '@linewatch/contracts/admin';
import ExcelJS from 'exceljs';
import { sheetArchiveProblem } from './sheet-guard.ts';

/**
 * The machine sheet (import and export share it): one column per field, Chinese headers as a
 * person reads them; the line and the product group by name.
 */
export const MACHINE_COLUMNS = [
  { key: 'snCode', header: 'SN码' },
  { key: 'deviceName', header: '设备名称' },
  { key: 'nickSnCode', header: 'SN昵称' },
  { key: 'nickDeviceName', header: '设备昵称' },
  { key: 'machineName', header: '机型' },
  { key: 'projectName', header: '项目' },
  { key: 'line', header: '产线' },
  { key: 'group', header: '产品组' },
  { key: 'country', header: '国家' },
  { key: 'province', header: '省份' },
  { key: 'city', header: '城市' },
  { key: 'ppmTarget', header: 'PPM目标' },
  { key: 'yieldTarget', header: '良率目标(%)' },
  { key: 'superiorityRateTarget', header: '优率目标(%)' },
  { key: 'useRateTarget', header: '稼动率目标(%)' },
  { key: 'produceTargetNumber', header: '产量目标' },
  { key: 'ngTargetNumber', header: 'NG目标' },
  { key: 'capacityTarget', header: '产能目标' },
  { key: 'maxPpm', header: '最大PPM' },
  { key: 'plcModel', header: 'PLC型号' },
] as const;

export const MAX_IMPORT_ROWS = 5000;

/**
 * What exceljs may be asked to build: a row costs it about 1 KB (500,000 empty rows fit in 24 MB
 * of XML and took it past 2 GB). Blank rows a person formatted are rows too, hence twice the rows
 * an import takes; a dozen columns beyond the sheet's (a person's notes) are taken.
 */
export const MODEL_LIMITS = {
  rows: 2 * (MAX_IMPORT_ROWS + 1),
  cells: (MAX_IMPORT_ROWS + 1) * (MACHINE_COLUMNS.length + 12),
};

/** Columns read as numbers; every other cell is text even when Excel stored 12345 as a number. */
const NUMERIC_KEYS: ReadonlySet<string> = new Set([
  'ppmTarget',
  'yieldTarget',
  'superiorityRateTarget',
  'useRateTarget',
  'produceTargetNumber',
  'ngTargetNumber',
  'capacityTarget',
  'maxPpm',
]);

type Cell = string | number | null;

/** A cell as the schema reads it: text trimmed, numbers as numbers, blanks null. */
const cellValue = (value: ExcelJS.CellValue): Cell => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value)
    return (
      value.richText
        .map((part) => part.text)
        .join('')
        .trim() || null
    );
  if ('result' in value) return cellValue(value.result);
  if ('text' in value) return String(value.text).trim() || null;
  return null;
};

export interface SheetRow {
  /** The row number in the sheet (the header is row 1), as a person sees it. */
  row: number;
  values: Record<string, Cell>;
}

export class SheetError extends Error {}

/** Reads the first worksheet; columns are found by header, so their order does not matter. */
export const readMachineSheet = async (file: Buffer): Promise<SheetRow[]> => {
  // Before exceljs inflates anything: a small file can inflate to gigabytes (issue 23).
  const problem = sheetArchiveProblem(file, MODEL_LIMITS);
  if (problem) throw new SheetError(problem);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
  } catch {
    throw new SheetError(adminMessages.badSheet);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new SheetError(adminMessages.emptySheet);
  const keyOfColumn = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, column) => {
    const header = cellValue(cell.value);
    const found = MACHINE_COLUMNS.find((c) => c.header === header || c.key === header);
    if (found) keyOfColumn.set(column, found.key);
  });
  const rows: SheetRow[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const values: Record<string, Cell> = {};
    let blank = true;
    for (const [column, key] of keyOfColumn) {
      const value = cellValue(row.getCell(column).value);
      if (value !== null) blank = false;
      values[key] = value === null || NUMERIC_KEYS.has(key) ? value : String(value);
    }
    if (!blank) rows.push({ row: number, values });
  });
  if (rows.length === 0) throw new SheetError(adminMessages.emptySheet);
  if (rows.length > MAX_IMPORT_ROWS) throw new SheetError(adminMessages.tooManyRows);
  return rows;
};

export const writeMachineSheet = async (machines: AdminMachine[]): Promise<Buffer> => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('机台');
  sheet.columns = MACHINE_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: 14 }));
  for (const m of machines) {
    sheet.addRow({ ...m, line: m.lineName, group: m.groupName, maxPpm: m.maxPpm ?? '' });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
};
