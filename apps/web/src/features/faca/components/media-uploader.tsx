import type { MediaRef, MediaType } from '@linewatch/contracts/faca';
import { facaMessages, MEDIA_LIMITS } from '@linewatch/contracts/faca-labels';
import { mediaPaths } from '@linewatch/contracts/faca-api';
import { ProgressBar } from 'antd-mobile';
import { AddOutline, CloseOutline } from 'antd-mobile-icons';
import { useRef, useState } from 'react';
import { upload } from '../../../shared/api-client.ts';
import { toastFailure } from '../../../shared/toast.ts';
import styles from './media-uploader.module.css';

interface MediaUploaderProps {
  type: MediaType;
  value: MediaRef[];
  onChange: (next: MediaRef[]) => void;
  testId: string;
}

const accept = (type: MediaType) => MEDIA_LIMITS[type].map((ext) => `.${ext}`).join(',');

/**
 * Pictures or videos of a form: checked here by extension, size and count for a quick answer
 * (the server checks again, by content), uploaded one by one with a progress bar.
 */
export const MediaUploader = ({ type, value, onChange, testId }: MediaUploaderProps) => {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const isPic = type === 'pic';

  const pick = async (files: File[]) => {
    const wrong = isPic ? facaMessages.onlyPictures : facaMessages.onlyVideos;
    const tooLarge = isPic ? facaMessages.pictureTooLarge : facaMessages.videoTooLarge;
    const tooMany = isPic ? facaMessages.tooManyPictures : facaMessages.tooManyVideos;
    if (value.length + files.length > MEDIA_LIMITS.maxFiles) return toastFailure(tooMany);
    for (const file of files) {
      const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
      if (!(MEDIA_LIMITS[type] as readonly string[]).includes(ext)) return toastFailure(wrong);
      if (file.size > MEDIA_LIMITS.maxBytes) return toastFailure(tooLarge);
    }
    let stored = value;
    for (const file of files) {
      setProgress(0);
      try {
        const refs = await upload<MediaRef[]>(
          `${mediaPaths.upload}?type=${type}`,
          [file],
          setProgress,
        );
        stored = [...stored, ...refs];
        onChange(stored);
      } catch {
        break; // the client toasted the server's message
      } finally {
        setProgress(null);
      }
    }
  };

  return (
    <div className={styles.uploader} data-testid={testId}>
      {value.map((m) => (
        <div key={m.id} className={styles.item} data-testid={`${testId}-item`}>
          {m.thumbUrl ? (
            <a href={m.url} target="_blank" rel="noreferrer">
              <img src={m.thumbUrl} alt="图片" className={styles.thumb} />
            </a>
          ) : (
            <video src={m.url} className={styles.thumb} controls preload="none" aria-label="视频" />
          )}
          <button
            type="button"
            className={styles.remove}
            aria-label="删除"
            onClick={() => onChange(value.filter((v) => v.id !== m.id))}
          >
            <CloseOutline />
          </button>
        </div>
      ))}
      {progress !== null ? (
        <div
          className={styles.item}
          role="progressbar"
          aria-label="上传进度"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
          data-testid={`${testId}-progress`}
        >
          <ProgressBar percent={Math.round(progress * 100)} text />
        </div>
      ) : value.length < MEDIA_LIMITS.maxFiles ? (
        <button
          type="button"
          className={`${styles.item} ${styles.add}`}
          onClick={() => input.current?.click()}
        >
          <AddOutline />
          <span>{isPic ? '图片' : '视频'}</span>
        </button>
      ) : null}
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept={accept(type)}
        aria-label={isPic ? '选择图片' : '选择视频'}
        data-testid={`${testId}-input`}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          void pick(files);
        }}
      />
    </div>
  );
};

/** Thumbnails of stored pictures and videos, read-only. */
export const MediaStrip = ({ items }: { items: MediaRef[] }) =>
  items.length ? (
    <div className={styles.uploader}>
      {items.map((m) =>
        m.thumbUrl ? (
          <a key={m.id} href={m.url} target="_blank" rel="noreferrer" className={styles.item}>
            <img src={m.thumbUrl} alt="" className={styles.thumb} />
          </a>
        ) : (
          <video key={m.id} src={m.url} className={styles.item} controls preload="none" />
        ),
      )}
    </div>
  ) : null;
