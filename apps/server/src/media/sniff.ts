import type { MediaType } from '@linewatch/contracts/faca';
import { fileTypeFromFile } from 'file-type';
import { readFile } from 'node:fs/promises';

/**
 * What a stored file is, decided by its bytes (magic numbers), never by its name: the container
 * file-type recognises, mapped to the one Content-Type we serve it with. qlv (Tencent) and qsv
 * (iQiyi) have no published signature; such a file is taken when its bytes are one of the video
 * containers below (those players write FLV / MP4 underneath), else refused.
 */
const ACCEPTED: Record<MediaType, Record<string, string>> = {
  pic: { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', bmp: 'image/bmp' },
  video: {
    mp4: 'video/mp4',
    m4v: 'video/mp4',
    flv: 'video/x-flv',
    avi: 'video/x-msvideo',
    asf: 'video/x-ms-asf',
    ogv: 'video/ogg',
    ogg: 'video/ogg',
    ogm: 'video/ogg',
    rm: 'application/vnd.rn-realmedia',
  },
};

/*
 * Markup a browser or an interpreter would act on. A picture that carries it is a polyglot (a GIF
 * that is also a script, a JPEG with HTML after its end): refused even though its header is a
 * picture's, since a misconfigured proxy or an old browser may still sniff it as HTML.
 */
const ACTIVE_CONTENT = /<(script|html|body|svg|iframe|object|embed|\?php|!doctype)\b|javascript:/i;

export type Sniffed = { ok: true; ext: string; mime: string } | { ok: false };

export const sniff = async (path: string, kind: MediaType): Promise<Sniffed> => {
  const detected = await fileTypeFromFile(path);
  const mime = detected ? ACCEPTED[kind][detected.ext] : undefined;
  if (!detected || !mime) return { ok: false };
  // latin1 keeps every byte as one character, so the markers are found wherever they sit.
  if (ACTIVE_CONTENT.test((await readFile(path)).toString('latin1'))) return { ok: false };
  return { ok: true, ext: detected.ext, mime };
};

/** The extension of a client's file name when it is one the spec allows for `kind`. */
export const declaredExtension = (fileName: string, allowed: readonly string[]): string | null => {
  const dot = fileName.lastIndexOf('.');
  const ext = dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
  return allowed.includes(ext) ? ext : null;
};

/**
 * A client file name we refuse outright: path parts (`../`, `a/b`, `C:\`), control characters or
 * nothing at all. It is never used to store the file; refusing says the client is up to no good.
 */
export const isHostileName = (fileName: string): boolean =>
  !fileName ||
  fileName.length > 255 ||
  /[/\\:\p{Cc}]/u.test(fileName) ||
  fileName === '.' ||
  fileName.startsWith('..');
