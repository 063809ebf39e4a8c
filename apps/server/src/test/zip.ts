import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/** One file of a zip written by `writeZip`. */
export interface ZipEntry {
  name: string;
  /** The file's bytes (deflated by writeZip) … */
  data?: Buffer;
  /** … or its deflate stream made elsewhere (a bomb too large to hold inflated), with its size. */
  deflated?: { bytes: Buffer; size: number; crc: number };
  /** The size to write in the headers instead of the true one (a zip that lies). */
  declaredSize?: number;
}

/**
 * A zip archive written by hand, so a test can make what no archiver would: a decompression
 * bomb, a central directory that understates what an entry inflates to.
 */
export const writeZip = (entries: readonly ZipEntry[]): Buffer => {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const packed = entry.deflated ?? {
      bytes: deflateRawSync(entry.data ?? Buffer.alloc(0)),
      size: (entry.data ?? Buffer.alloc(0)).length,
      crc: crc32(entry.data ?? Buffer.alloc(0)),
    };
    const size = entry.declaredSize ?? packed.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(packed.crc >>> 0, 14);
    local.writeUInt32LE(packed.bytes.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed.bytes);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(packed.crc >>> 0, 16);
    central.writeUInt32LE(packed.bytes.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + packed.bytes.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
};

/**
 * The deflate stream of `head`, then `chunk` `times` over, then `tail`, made a chunk at a time:
 * a 200 MB entry costs the test a few megabytes, never the 200.
 */
export const deflateRepeated = async (
  head: string,
  chunk: string,
  times: number,
  tail: string,
): Promise<{ bytes: Buffer; size: number; crc: number }> => {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let size = 0;
  let crc = 0;
  const write = async (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    size += bytes.length;
    crc = crc32(bytes, crc);
    if (!deflate.write(bytes)) await new Promise((resolve) => deflate.once('drain', resolve));
  };
  await write(head);
  for (let i = 0; i < times; i++) await write(chunk);
  await write(tail);
  deflate.end();
  await done;
  return { bytes: Buffer.concat(out), size, crc };
};

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** The opening of a worksheet's XML up to its rows, and its end (for `deflateRepeated`). */
export const SHEET_HEAD = `${XML}<worksheet xmlns="${MAIN}"><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';

/** The smallest workbook Excel and exceljs open, its one worksheet given as `sheet`. */
export const minimalXlsx = (sheet: Omit<ZipEntry, 'name'>): Buffer =>
  writeZip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
          `<Default Extension="xml" ContentType="application/xml"/>` +
          `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
          `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" ` +
          `Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        `${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets>` +
          `<sheet name="机台" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" ` +
          `Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', ...sheet },
  ]);
