import { type MediaRef, type MediaType } from '@linewatch/contracts/faca';
import { facaMessages, MEDIA_LIMITS } from '@linewatch/contracts/faca-labels';
import { mediaPaths } from '@linewatch/contracts/faca-api';
import { ReplyCode } from '@linewatch/contracts/envelope';
import type { MultipartFile } from '@fastify/multipart';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { DomainError, forbidden, notFound } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import type { Executor } from '../notifications/service.ts';
import type { MediaRepository } from './repository.ts';
import { declaredExtension, isHostileName, sniff } from './sniff.ts';
import type { MediaStorage } from './storage.ts';
import { makeThumbnail } from './thumbnail.ts';

/** An upload refused for its size: HTTP 413 with the envelope's bad-input code. */
export class MediaTooLarge extends DomainError {
  constructor(message: string) {
    super(ReplyCode.badInput, message, { errors: [{ path: 'file', message }] });
    this.name = 'MediaTooLarge';
  }
}

const badInput = (message: string, path = 'file') =>
  new DomainError(ReplyCode.badInput, message, { errors: [{ path, message }] });

/** An upload no form saved is kept this long (a person may take a while to fill one in). */
const UNATTACHED_KEPT_MS = 24 * 3_600_000;
/** A staging file untouched this long belongs to no upload in progress (10 MB takes minutes). */
const STAGING_KEPT_MS = 3_600_000;

const quotaReached = () => new DomainError(ReplyCode.refused, facaMessages.uploadQuota);

const messagesOf = (kind: MediaType) =>
  kind === 'pic'
    ? {
        wrongType: facaMessages.onlyPictures,
        tooLarge: facaMessages.pictureTooLarge,
        tooMany: facaMessages.tooManyPictures,
      }
    : {
        wrongType: facaMessages.onlyVideos,
        tooLarge: facaMessages.videoTooLarge,
        tooMany: facaMessages.tooManyVideos,
      };

export const mediaRef = (id: string, type: MediaType): MediaRef => ({
  id,
  type,
  url: `${mediaPaths.hdImage}?id=${id}&type=${type}`,
  thumbUrl: type === 'pic' ? `${mediaPaths.thumbnail}?id=${id}` : null,
});

interface Staged {
  id: string;
  path: string;
  ext: string;
  mime: string;
  size: number;
  thumbPath: string | null;
}

export interface MediaDeps {
  repo: MediaRepository;
  storage: MediaStorage;
  /** Whether the user may see a machine (line visibility: the devices service decides). */
  canSeeMachine: (user: SessionUser, sn: string) => Promise<boolean>;
}

export const createMediaService = ({ repo, storage, canSeeMachine }: MediaDeps) => {
  const canSeeQuestion = async (user: SessionUser, facaId: number) => {
    const sn = await repo.questionSn(facaId);
    return sn !== null && (await canSeeMachine(user, sn));
  };

  /** Receives one part into a staging file and checks it; throws (and leaves nothing) if bad. */
  const receive = async (part: MultipartFile, kind: MediaType, staged: Staged[]) => {
    const text = messagesOf(kind);
    if (isHostileName(part.filename)) throw badInput(facaMessages.badFileName);
    if (!declaredExtension(part.filename, MEDIA_LIMITS[kind])) throw badInput(text.wrongType);
    const target = await storage.stage();
    const entry: Staged = {
      id: '',
      path: target.path,
      ext: '',
      mime: '',
      size: 0,
      thumbPath: null,
    };
    staged.push(entry);
    // busboy stops counting at the limit + 1 byte and marks the part truncated.
    const stream = target.write();
    await pipeline(part.file, stream);
    if (part.file.truncated) throw new MediaTooLarge(text.tooLarge);
    entry.size = stream.bytesWritten;
    if (entry.size === 0) throw badInput(text.wrongType);
    const sniffed = await sniff(target.path, kind);
    if (!sniffed.ok) throw badInput(text.wrongType);
    entry.ext = sniffed.ext;
    entry.mime = sniffed.mime;
    entry.id = randomBytes(16).toString('hex');
    if (kind === 'pic') {
      const thumb = await storage.stage();
      entry.thumbPath = thumb.path;
      // A picture the decoder cannot read is no picture, whatever its header says.
      const made = await makeThumbnail(target.path, sniffed.ext, thumb.path);
      if (made === 'broken') throw badInput(text.wrongType);
      if (made === 'none') entry.thumbPath = null;
    }
  };

  const discardAll = async (staged: Staged[]) => {
    for (const s of staged) {
      await storage.discard(s.path);
      if (s.thumbPath) await storage.discard(s.thumbPath);
    }
  };

  return {
    /**
     * Takes every file of a multipart request, then stores them all or none: each part is staged,
     * checked by name, size (10 MB) and content, and only when every part passed (and there were
     * at most 9) are they moved into place and recorded.
     */
    async upload(
      user: SessionUser,
      kind: MediaType,
      parts: AsyncIterable<MultipartFile>,
    ): Promise<MediaRef[]> {
      const staged: Staged[] = [];
      // Checked before a byte is taken and again with what this request brought: two requests
      // at once can pass the first check together, so the bound is the quota plus a request.
      const held = await repo.unattachedBytes(user.userId);
      const overQuota = (more: number) => held + more > MEDIA_LIMITS.unattachedBytesPerUser;
      if (overQuota(1)) throw quotaReached();
      try {
        let count = 0;
        for await (const part of parts) {
          count += 1;
          if (count > MEDIA_LIMITS.maxFiles) throw badInput(messagesOf(kind).tooMany);
          await receive(part, kind, staged);
        }
        if (count === 0) throw badInput(facaMessages.noFile);
        if (overQuota(staged.reduce((sum, s) => sum + s.size, 0))) throw quotaReached();
        for (const s of staged) {
          await storage.commit(s.path, s.id);
          if (s.thumbPath) await storage.commit(s.thumbPath, `${s.id}.thumb`);
        }
      } catch (error) {
        await discardAll(staged);
        throw error;
      }
      try {
        await repo.insert(
          staged.map((s) => ({
            id: s.id,
            kind,
            mime: s.mime,
            ext: s.ext,
            size: s.size,
            has_thumb: s.thumbPath !== null,
            owner_id: user.userId,
          })),
        );
      } catch (error) {
        for (const s of staged) {
          await storage.remove(s.id);
          await storage.remove(`${s.id}.thumb`);
        }
        throw error;
      }
      return staged.map((s) => mediaRef(s.id, kind));
    },

    /**
     * Deletes uploads no form saved within a day, and files of questions that are gone, then
     * staging files untouched for an hour (a server killed mid-upload left them). The rows go
     * first: a file whose removal fails is only disk, never a row naming a missing file.
     */
    async cleanUp(now = Date.now()): Promise<{ files: number; staging: number }> {
      const gone = await repo.deleteStale(new Date(now - UNATTACHED_KEPT_MS));
      for (const row of gone) {
        await storage.remove(row.id);
        if (row.has_thumb) await storage.remove(`${row.id}.thumb`);
      }
      const staging = await storage.sweepStaging(STAGING_KEPT_MS, now);
      return { files: gone.length, staging };
    },

    /**
     * A file the user may see: their own upload, or one attached to a question on their lines.
     * `thumb` falls back to the picture itself where no thumbnail could be made (BMP).
     */
    async open(user: SessionUser, id: string, variant: 'hd' | 'thumb', type?: MediaType) {
      const row = await repo.find(id);
      if (!row || (type && row.kind !== type)) throw notFound();
      const mine = row.owner_id === user.userId;
      if (!mine && (row.faca_id === null || !(await canSeeQuestion(user, row.faca_id))))
        throw forbidden();
      const useThumb = variant === 'thumb' && row.has_thumb;
      const file = await storage.open(useThumb ? `${id}.thumb` : id);
      if (!file) throw notFound();
      return {
        ...file,
        mime: useThumb ? 'image/jpeg' : row.mime,
        fileName: `${id}.${useThumb ? 'jpg' : row.ext}`,
      };
    },

    /**
     * Checks the ids a form names and ties them to its question, in the form's transaction: each
     * must be a file of `kind` that this user uploaded and nobody attached yet, or one already
     * attached to this question (kept from before).
     */
    async attach(
      tx: Executor,
      user: SessionUser,
      facaId: number,
      ids: readonly string[],
      kind: MediaType,
    ): Promise<void> {
      if (ids.length === 0) return;
      const rows = await repo.findMany(tx, ids);
      const usable = rows.filter(
        (r) =>
          r.kind === kind &&
          (r.faca_id === facaId || (r.faca_id === null && r.owner_id === user.userId)),
      );
      if (usable.length !== new Set(ids).size)
        throw badInput(facaMessages.badMedia, kind === 'pic' ? 'picIds' : 'videoIds');
      await repo.attach(tx, ids, facaId);
    },
  };
};

export type MediaService = ReturnType<typeof createMediaService>;
