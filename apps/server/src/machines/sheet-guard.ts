import { adminMessages } from '@linewatch/contracts/admin';
import { inflateRawSync } from 'node:zlib';

const MB = 1024 * 1024;

/**
 * What a machine sheet's archive may hold once inflated. The largest real sheet — 5000 machines,
 * every text field at its 64-character limit, strings inline — is about 15 MB of XML, nearly all
 * of it one worksheet and the shared strings; another part (styles, theme, properties) is a few
 * kilobytes in Excel's and WPS's files. Real sheets compress 10–40×; a bomb about 1000×.
 */
const ARCHIVE_LIMITS = {
  entries: 200,
  /** A worksheet or the shared strings. */
  sheetPartBytes: 24 * MB,
  /** Any other part. */
  otherPartBytes: 4 * MB,
  totalBytes: 32 * MB,
  /** Inflated ÷ compressed, over the whole archive, once it inflates to more than 1 MB. */
  ratio: 100,
} as const;

/** What exceljs would build, counted in the XML before it does (sheet.ts sets them). */
export interface ModelLimits {
  /** `<row>` elements of every worksheet, blank ones included. */
  rows: number;
  /** `<c>` elements of every worksheet, and shared strings. */
  cells: number;
}

const SHEET_PART = /^xl\/(?:worksheets\/[^/]+\.xml|sharedStrings\.xml)$/;
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;
// An element's start, with or without a namespace prefix (<row>, <x:row …>).
const ROW = /<(?:[A-Za-z_][\w.-]*:)?row[\s/>]/g;
const CELL = /<(?:[A-Za-z_][\w.-]*:)?c[\s/>]/g;
const SHARED_STRING = /<(?:[A-Za-z_][\w.-]*:)?si[\s/>]/g;

/** A refusal with the message the admin sees. */
class Refused extends Error {}
const bad = () => new Refused(adminMessages.badSheet);
const tooLarge = () => new Refused(adminMessages.sheetTooLarge);

interface Entry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
}

/** The archive's entries as its central directory lists them (what exceljs's JSZip reads). */
const centralDirectory = (file: Buffer): Entry[] => {
  // The end record is the last 22 bytes plus a comment of up to 65,535.
  const from = Math.max(0, file.length - 22 - 0xffff);
  let end = -1;
  for (let i = file.length - 22; i >= from; i--)
    if (file.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) throw bad();
  const count = file.readUInt16LE(end + 10);
  const directoryOffset = file.readUInt32LE(end + 16);
  // ZIP64 (counts and offsets of 0xFFFF…): a sheet never needs it, and its sizes would need
  // reading elsewhere.
  if (count === 0xffff || directoryOffset === 0xffffffff) throw tooLarge();
  if (count === 0) throw bad();
  if (count > ARCHIVE_LIMITS.entries) throw tooLarge();
  const entries: Entry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== 0x02014b50) throw bad();
    const flags = file.readUInt16LE(at + 8);
    const nameLength = file.readUInt16LE(at + 28);
    const entry: Entry = {
      name: file.toString('utf8', at + 46, at + 46 + nameLength),
      method: file.readUInt16LE(at + 10),
      compressed: file.readUInt32LE(at + 20),
      size: file.readUInt32LE(at + 24),
      localOffset: file.readUInt32LE(at + 42),
    };
    if (flags & 1) throw bad(); // encrypted
    if (entry.size === 0xffffffff || entry.compressed === 0xffffffff) throw tooLarge();
    if (entry.method !== 0 && entry.method !== 8) throw bad();
    entries.push(entry);
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return entries;
};

/** An entry's bytes, inflated no further than it declares (a lying size is refused). */
const inflated = (file: Buffer, entry: Entry): Buffer => {
  const local = entry.localOffset;
  if (local + 30 > file.length || file.readUInt32LE(local) !== 0x04034b50) throw bad();
  const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
  if (start + entry.compressed > file.length) throw bad();
  const data = file.subarray(start, start + entry.compressed);
  if (entry.method === 0) {
    if (entry.compressed !== entry.size) throw bad();
    return data;
  }
  let out: Buffer;
  try {
    out = inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw bad();
  }
  if (out.length !== entry.size) throw bad();
  return out;
};

const count = (text: string, pattern: RegExp) => {
  let n = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text)) n++;
  return n;
};

/**
 * Why a sheet's archive would make the server hold more than a real machine sheet does (the
 * message for the admin), or null. Judged from the central directory's sizes before anything is
 * inflated; then each part is inflated with its declared size as a hard ceiling (a size that
 * lies is refused, never believed), and the rows, cells and shared strings exceljs would build
 * are counted in the XML. What passes, exceljs reads: it reads the same central directory.
 */
export const sheetArchiveProblem = (file: Buffer, model: ModelLimits): string | null => {
  try {
    check(file, model);
    return null;
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
};

const check = (file: Buffer, model: ModelLimits) => {
  if (file.length < 22) throw bad();
  const entries = centralDirectory(file);
  let total = 0;
  let compressed = 0;
  for (const entry of entries) {
    const limit = SHEET_PART.test(entry.name)
      ? ARCHIVE_LIMITS.sheetPartBytes
      : ARCHIVE_LIMITS.otherPartBytes;
    if (entry.size > limit) throw tooLarge();
    total += entry.size;
    compressed += entry.compressed;
  }
  if (total > ARCHIVE_LIMITS.totalBytes) throw tooLarge();
  if (total > MB && total > ARCHIVE_LIMITS.ratio * Math.max(compressed, 1)) throw tooLarge();

  let rows = 0;
  let cells = 0;
  for (const entry of entries) {
    const bytes = inflated(file, entry);
    if (!SHEET_PART.test(entry.name)) continue;
    // latin1: one character a byte, and the markup counted is ASCII
    const xml = bytes.toString('latin1');
    if (WORKSHEET.test(entry.name)) {
      rows += count(xml, ROW);
      cells += count(xml, CELL);
    } else if (count(xml, SHARED_STRING) > model.cells) throw tooLarge();
  }
  if (rows > model.rows) throw new Refused(adminMessages.tooManyRows);
  if (cells > model.cells) throw tooLarge();
};
