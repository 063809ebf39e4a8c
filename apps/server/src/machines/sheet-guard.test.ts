import { adminMessages } from '@linewatch/contracts/admin';
import { describe, expect, it } from 'vitest';
import { deflateRepeated, minimalXlsx, SHEET_HEAD, SHEET_TAIL, writeZip } from '../test/zip.ts';
import {
  MACHINE_COLUMNS,
  MAX_IMPORT_ROWS,
  MODEL_LIMITS,
  readMachineSheet,
  SheetError,
} from './sheet.ts';
import { sheetArchiveProblem } from './sheet-guard.ts';

// A .xlsx is a zip: a few hundred kilobytes can inflate to gigabytes. The review's 720 KB sheet
// took the server from 462 MB to 1,198 MB, and a 206 KB file holding a 200 MB sheet was taken.
// The sheet's archive is judged before anything is inflated for exceljs (the import refusing a
// bomb over HTTP: admin.test.ts).

const MB = 1024 * 1024;
const cell = (ref: string, value: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
const HEADER = `<row r="1">${cell('A1', 'SN码')}${cell('B1', '设备名称')}${cell('C1', '产线')}</row>`;
/** The message a sheet is refused with, or null when it is read. */
const refusal = (file: Buffer) =>
  readMachineSheet(file).then(
    () => null,
    (error: unknown) => {
      if (error instanceof SheetError) return error.message;
      throw error;
    },
  );

describe('the archive check', () => {
  it('refuses an entry that inflates past what the archive declares', async () => {
    const sheet = await deflateRepeated(SHEET_HEAD + HEADER, ' '.repeat(MB), 40, SHEET_TAIL);
    expect(await refusal(minimalXlsx({ deflated: sheet, declaredSize: 1000 }))).toBe(
      adminMessages.sheetTooLarge,
    );
  });

  it('refuses a sheet within the size bound that is compressed beyond any real sheet', async () => {
    const sheet = await deflateRepeated(SHEET_HEAD + HEADER, ' '.repeat(MB), 16, SHEET_TAIL);
    expect(await refusal(minimalXlsx({ deflated: sheet }))).toBe(adminMessages.sheetTooLarge);
  });

  it('refuses more rows than an import takes before exceljs builds them', async () => {
    const rows = Array.from(
      { length: 4 * MAX_IMPORT_ROWS },
      (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>1</v></c></row>`,
    ).join('');
    const file = minimalXlsx({ data: Buffer.from(SHEET_HEAD + HEADER + rows + SHEET_TAIL) });
    expect(await refusal(file)).toBe(adminMessages.tooManyRows);
  });

  it('refuses what is not a zip, or a damaged one, as no spreadsheet', async () => {
    expect(await refusal(Buffer.from('not a spreadsheet'))).toBe(adminMessages.badSheet);
    const good = minimalXlsx({ data: Buffer.from(SHEET_HEAD + HEADER + SHEET_TAIL) });
    expect(await refusal(good.subarray(0, good.length - 30))).toBe(adminMessages.badSheet);
    expect(await refusal(writeZip([]))).toBe(adminMessages.badSheet);
  });

  it('takes the largest real sheet: 5000 machines, every text field at its limit, inline', () => {
    // Inline strings (as some writers save) are the largest form: ~15 MB of XML. Building it by
    // hand is fast; exceljs reading sheets is the admin import tests' business.
    const text = (row: number, column: number) =>
      `${row}-${column}-${'回流焊炉温区控制模块'.repeat(7)}`.slice(0, 64);
    const rows = Array.from({ length: MAX_IMPORT_ROWS }, (_, i) => {
      const r = i + 2;
      const cells = MACHINE_COLUMNS.map((c, j) =>
        j >= 11 && j < 19
          ? `<c r="${String.fromCharCode(65 + j)}${r}"><v>${i}</v></c>`
          : cell(`${String.fromCharCode(65 + j)}${r}`, text(i, j)),
      );
      return `<row r="${r}">${cells.join('')}</row>`;
    });
    const xml = Buffer.from(SHEET_HEAD + HEADER + rows.join('') + SHEET_TAIL);
    expect(xml.length).toBeGreaterThan(12 * MB);
    expect(sheetArchiveProblem(minimalXlsx({ data: xml }), MODEL_LIMITS)).toBeNull();
  });
});
