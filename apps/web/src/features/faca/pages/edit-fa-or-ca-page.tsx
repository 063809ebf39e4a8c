import type { FacaInfo, MediaRef } from '@linewatch/contracts/faca';
import { caStatusLabels } from '@linewatch/contracts/faca-labels';
import { facaApi } from '@linewatch/contracts/faca-api';
import { Form, Input, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { useHandlers, useQuestion } from '../api.ts';
import { MediaFields } from '../components/media-uploader.tsx';
import { PageFrame, SubmitFooter } from '../components/page-frame.tsx';
import { useFormSave } from '../components/validate.ts';

const FaForm = ({ q, id }: { q: FacaInfo; id: number | null }) => {
  const navigate = useNavigate();
  const save = useFormSave(
    facaApi.addOrUpdateFaInfo,
    () => import('@linewatch/contracts/faca').then((c) => c.faInfoBody),
    () => void navigate(-1),
  );
  const fa = q.faInfos.find((f) => f.id === id);
  const [text, setText] = useState(fa?.faDescription ?? '');
  const [pics, setPics] = useState<MediaRef[]>(fa?.faPicList ?? []);
  const [videos, setVideos] = useState<MediaRef[]>(fa?.faVideoList ?? []);
  const submit = () =>
    void save.submit({
      ...(id ? { id } : {}),
      facaInfoId: q.id,
      faDescription: text,
      faPicIds: pics.map((p) => p.id),
      faVideoIds: videos.map((p) => p.id),
    });
  return (
    <>
      <Form layout="vertical">
        <Form.Item label="故障分析" required>
          <TextArea
            placeholder="请输入故障分析"
            autoSize
            value={text}
            onChange={setText}
            data-testid="fa-description"
          />
        </Form.Item>
        <MediaFields
          pics={pics}
          videos={videos}
          onPics={setPics}
          onVideos={setVideos}
          testId="fa"
        />
      </Form>
      <SubmitFooter pending={save.pending} onSubmit={submit} testId="fa-submit" />
    </>
  );
};

const CaForm = ({ q, id }: { q: FacaInfo; id: number | null }) => {
  const navigate = useNavigate();
  const save = useFormSave(
    facaApi.addOrUpdateCaInfo,
    () => import('@linewatch/contracts/faca').then((c) => c.caInfoBody),
    () => void navigate(-1),
  );
  const handlers = useHandlers(q.snCode);
  const ca = q.faInfos.flatMap((f) => f.caInfos).find((c) => c.id === id);
  const [v, setV] = useState({
    caDescription: ca?.caDescription ?? '',
    faInfoId: ca ? String(ca.faInfoId) : '',
    handlers: ca?.handlerList.map((h) => String(h.userId)) ?? [],
    resolvingTime: ca?.resolvingTime ?? '',
    caStatus: String(ca?.caStatus ?? 0),
    ngReason: ca?.ngReason ?? '',
  });
  const [pics, setPics] = useState<MediaRef[]>(ca?.caPicList ?? []);
  const [videos, setVideos] = useState<MediaRef[]>(ca?.caVideoList ?? []);
  const set = (key: keyof typeof v) => (value: string | string[]) =>
    setV((old) => ({ ...old, [key]: value }));
  const submit = () =>
    void save.submit({
      ...(id ? { id } : {}),
      facaInfoId: q.id,
      faInfoId: v.faInfoId,
      caDescription: v.caDescription,
      handler: v.handlers.join(','),
      resolvingTime: v.resolvingTime,
      caStatus: v.caStatus,
      ngReason: v.ngReason,
      caPicIds: pics.map((p) => p.id),
      caVideoIds: videos.map((p) => p.id),
    });
  return (
    <>
      <Form layout="vertical">
        <Form.Item label="纠正措施" required>
          <TextArea
            placeholder="请输入纠正措施"
            autoSize
            value={v.caDescription}
            onChange={set('caDescription')}
            data-testid="ca-description"
          />
        </Form.Item>
        <Form.Item label="关联FA" required>
          <Selector
            options={q.faInfos.map((f) => ({ label: `FA${f.faNum}`, value: String(f.id) }))}
            value={v.faInfoId ? [v.faInfoId] : []}
            onChange={(x) => set('faInfoId')(x[0] ?? '')}
            data-testid="ca-fa"
          />
        </Form.Item>
        <Form.Item label="处理人" required>
          <Selector
            multiple
            options={(handlers.data ?? []).map((h) => ({ label: h.name, value: String(h.userId) }))}
            value={v.handlers}
            onChange={set('handlers')}
            data-testid="ca-handlers"
          />
        </Form.Item>
        <Form.Item label="纳期" required>
          <Input
            type="date"
            placeholder="请选择纳期"
            value={v.resolvingTime}
            onChange={set('resolvingTime')}
            data-testid="ca-due"
          />
        </Form.Item>
        <Form.Item label="状态">
          <Selector
            options={[0, 1, 2].map((s) => ({ label: caStatusLabels[s]!, value: String(s) }))}
            value={[v.caStatus]}
            onChange={(x) => set('caStatus')(x[0] ?? '0')}
          />
        </Form.Item>
        {v.caStatus === '2' ? (
          <Form.Item label="NG原因" required>
            <TextArea
              placeholder="请输入NG原因"
              autoSize
              value={v.ngReason}
              onChange={set('ngReason')}
            />
          </Form.Item>
        ) : null}
        <MediaFields
          pics={pics}
          videos={videos}
          onPics={setPics}
          onVideos={setVideos}
          testId="ca"
        />
      </Form>
      <SubmitFooter pending={save.pending} onSubmit={submit} testId="ca-submit" />
    </>
  );
};

const EditFaOrCaPage = () => {
  const [params] = useSearchParams();
  const facaInfoId = Number(params.get('facaInfoId')) || null;
  const type = params.get('type') === 'CA' ? 'CA' : 'FA';
  const id = Number(params.get('id')) || null;
  const question = useQuestion(facaInfoId);
  const title = `${id ? '编辑' : '新增'}${type}`;
  return (
    <PageFrame title={title}>
      {!question.data ? (
        <ListState
          state={question.isError ? 'error' : 'loading'}
          onRetry={() => void question.refetch()}
        />
      ) : type === 'FA' ? (
        <FaForm q={question.data} id={id} />
      ) : (
        <CaForm q={question.data} id={id} />
      )}
    </PageFrame>
  );
};

export default EditFaOrCaPage;
