import { imageSize } from 'image-size';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

/** Pictures of more pixels than this are refused before decoding (a decompression bomb). */
const MAX_PIXELS = 50_000_000;
const THUMB_SIZE = 240;

/**
 * A small JPEG for lists, written to `target`. Decoding the whole picture also proves it is one.
 * libvips reads no BMP: those are only measured (a header with no sane size is refused) and get no
 * thumbnail (lists show the picture itself).
 */
export const makeThumbnail = async (
  source: string,
  ext: string,
  target: string,
): Promise<'made' | 'none' | 'broken'> => {
  if (ext === 'bmp') {
    try {
      const { width, height } = imageSize(await readFile(source));
      return width > 0 && height > 0 && width * height <= MAX_PIXELS ? 'none' : 'broken';
    } catch {
      return 'broken';
    }
  }
  try {
    await sharp(source, { failOn: 'error', limitInputPixels: MAX_PIXELS, animated: false })
      .rotate()
      .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 75 })
      .toFile(target);
    return 'made';
  } catch {
    return 'broken';
  }
};
