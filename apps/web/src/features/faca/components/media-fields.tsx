import type { MediaRef } from '@linewatch/contracts/faca';
import { useController, type Control } from 'react-hook-form';
import { ListFormItem } from '../../../shared/components/list-form.tsx';
import { MediaUploader } from './media-uploader.tsx';

/** What a form holds of its pictures and videos. */
interface FormMedia {
  pics: MediaRef[];
  videos: MediaRef[];
}

/** A form's 图片 and 视频 fields, its `pics` and `videos` (test ids `<testId>-pics`, `-videos`). */
export const MediaFields = <T extends FormMedia, Parsed>({
  control,
  testId,
}: {
  control: Control<T, unknown, Parsed>;
  testId: string;
}) => {
  const media = control as unknown as Control<FormMedia>;
  const pics = useController({ control: media, name: 'pics' }).field;
  const videos = useController({ control: media, name: 'videos' }).field;
  return (
    <>
      <ListFormItem label="图片" layout="vertical">
        <MediaUploader
          type="pic"
          value={pics.value}
          onChange={pics.onChange}
          testId={`${testId}-pics`}
        />
      </ListFormItem>
      <ListFormItem label="视频" layout="vertical">
        <MediaUploader
          type="video"
          value={videos.value}
          onChange={videos.onChange}
          testId={`${testId}-videos`}
        />
      </ListFormItem>
    </>
  );
};
