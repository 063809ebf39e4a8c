import { deflateSync } from 'node:zlib';
import type { Plugin } from 'vite';

/*
 * The installable app's icons (the web manifest's, vite.config.ts), drawn at build time rather
 * than checked in: the app's blue (antd-mobile's primary) with a white trend line over a white
 * baseline, at the sizes Android and iOS ask for. A plain PNG encoder: RGBA rows, zlib, CRC.
 */
export const ICON_SIZES = [192, 512] as const;
export const iconFile = (size: number): string => `icons/icon-${size}.png`;

const BLUE = [0x16, 0x77, 0xff] as const;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer): Buffer => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** Distance from (x, y) to the segment (ax, ay)–(bx, by). */
const toSegment = (x: number, y: number, [ax, ay, bx, by]: readonly number[]): number => {
  const dx = bx! - ax!;
  const dy = by! - ay!;
  const t = Math.max(0, Math.min(1, ((x - ax!) * dx + (y - ay!) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax! + t * dx), y - (ay! + t * dy));
};

/** The icon as PNG bytes, `size` pixels square (the drawing leaves a maskable safe zone). */
export const drawIcon = (size: number): Buffer => {
  // In units of the square (0..1): a rising line with a dip, and a baseline under it.
  const line = [
    [0.24, 0.6, 0.4, 0.44],
    [0.4, 0.44, 0.52, 0.54],
    [0.52, 0.54, 0.76, 0.3],
  ];
  const base = [0.24, 0.72, 0.76, 0.72];
  const stroke = 0.045;
  const rows: Buffer[] = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      const x = (px + 0.5) / size;
      const y = (py + 0.5) / size;
      const near = Math.min(...[...line, base].map((segment) => toSegment(x, y, segment)));
      // One pixel of soft edge.
      const white = Math.max(0, Math.min(1, (stroke - near) * size + 0.5));
      const at = 1 + px * 4;
      for (let channel = 0; channel < 3; channel++)
        row[at + channel] = Math.round(BLUE[channel]! + (255 - BLUE[channel]!) * white);
      row[at + 3] = 255;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

export const appIcons = (): Plugin => ({
  name: 'linewatch:app-icons',
  apply: 'build',
  generateBundle() {
    for (const size of ICON_SIZES)
      this.emitFile({ type: 'asset', fileName: iconFile(size), source: drawIcon(size) });
  },
});
