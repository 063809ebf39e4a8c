import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { drawIcon } from './vite-app-icons.ts';

/** The PNG's chunks by type, as a decoder reads them. */
const chunks = (png: Buffer) => {
  const found = new Map<string, Buffer>();
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    found.set(
      type,
      Buffer.concat([found.get(type) ?? Buffer.alloc(0), png.subarray(at + 8, at + 8 + length)]),
    );
    at += 12 + length;
  }
  return found;
};

describe('the app icon', () => {
  it('is a square RGBA PNG of the size asked, blue with a white drawing', () => {
    const png = drawIcon(48);
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const parts = chunks(png);
    const header = parts.get('IHDR')!;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([
      48, 48, 8, 6,
    ]);
    const pixels = inflateSync(parts.get('IDAT')!);
    expect(pixels.length).toBe(48 * (1 + 48 * 4));
    const pixel = (x: number, y: number) => {
      const at = y * (1 + 48 * 4) + 1 + x * 4;
      return [...pixels.subarray(at, at + 4)];
    };
    expect(pixel(0, 0)).toEqual([0x16, 0x77, 0xff, 255]);
    // On the baseline (y = 0.72 of the square), halfway across.
    expect(pixel(24, Math.floor(0.72 * 48))).toEqual([255, 255, 255, 255]);
  });
});
