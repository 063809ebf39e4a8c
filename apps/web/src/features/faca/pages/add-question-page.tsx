import type { FacaInfo, MediaRef } from '@linewatch/contracts/faca';
import { DATA_FROM_MANUAL } from '@linewatch/contracts/faca-labels';
import { facaApi } from '@linewatch/contracts/faca-api';
import { Form, Input, Selector, TextArea } from 'antd-mobile';
import { Fragment, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { links } from '../../../shared/paths.ts';
import { nameOptions, useOptions, useQuestion } from '../api.ts';
import { MediaFields } from '../components/media-uploader.tsx';
import { PageFrame, SubmitFooter } from '../components/page-frame.tsx';
import { useFormSave } from '../components/validate.ts';

interface Values {
  snCode: string;
  workmanship: string;
  count: string;
  warningContent: string;
  facaDescription: string;
  hour: string;
  minute: string;
  second: string;
  influenceParameters: string[];
  dataFrom: string;
  pics: MediaRef[];
  videos: MediaRef[];
}

const DURATION_PARTS = [
  ['hour', '时'],
  ['minute', '分'],
  ['second', '秒'],
] as const;

const fromMs = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return {
    hour: String(Math.floor(s / 3600)),
    minute: String(Math.floor((s % 3600) / 60)),
    second: String(s % 60),
  };
};

/** The form's start: an alarm's prefill (query parameters) or a blank question. */
const initial = (params: URLSearchParams): Values => {
  const timeLength = Number(params.get('timeLength'));
  return {
    snCode: params.get('snCode') ?? '',
    workmanship: '',
    count: params.get('count') ?? '1',
    warningContent: params.get('warningContent') ?? '',
    facaDescription: '',
    ...(Number.isFinite(timeLength) && timeLength > 0
      ? fromMs(timeLength)
      : { hour: '0', minute: '0', second: '0' }),
    influenceParameters: [],
    dataFrom: params.get('snCode') ? '报警记录' : DATA_FROM_MANUAL,
    pics: [],
    videos: [],
  };
};

const fromQuestion = (q: FacaInfo): Values => ({
  snCode: q.snCode,
  workmanship: q.workmanship,
  count: String(q.count),
  warningContent: q.warningContent,
  facaDescription: q.facaDescription,
  ...fromMs(q.timeLength),
  influenceParameters: q.influenceParameters.split(',').filter(Boolean),
  dataFrom: q.dataFrom,
  pics: q.picList,
  videos: q.videoList,
});

const AddQuestionPage = () => {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const existing = useQuestion(id);
  const workmanships = useOptions('workmanship');
  const influences = useOptions('influence');
  const save = useFormSave(
    facaApi.addOrUpdateFacaInfo,
    () => import('@linewatch/contracts/faca').then((c) => c.facaInfoBody),
    (saved) => {
      void navigate(links.facaEditFaca(saved.id), { replace: true });
    },
  );
  const [values, setValues] = useState<Values>(() => initial(params));
  useEffect(() => {
    if (existing.data) setValues(fromQuestion(existing.data));
  }, [existing.data]);
  const set =
    <K extends keyof Values>(key: K) =>
    (value: Values[K]) =>
      setValues((v) => ({ ...v, [key]: value }));

  const submit = () =>
    void save.submit({
      ...(id ? { id } : {}),
      snCode: values.snCode,
      workmanship: values.workmanship,
      count: values.count,
      warningContent: values.warningContent,
      facaDescription: values.facaDescription,
      hour: values.hour,
      minute: values.minute,
      second: values.second,
      influenceParameters: values.influenceParameters.join(','),
      dataFrom: values.dataFrom,
      facaPicIds: values.pics.map((p) => p.id),
      facaVideoIds: values.videos.map((p) => p.id),
    });

  return (
    <PageFrame title={id ? '编辑问题' : '新增问题'}>
      <Form layout="horizontal" data-testid="question-form">
        <Form.Item label="设备SN码" required>
          <Input
            placeholder="请输入设备SN码"
            value={values.snCode}
            onChange={set('snCode')}
            data-testid="q-sn"
          />
        </Form.Item>
        <Form.Item label="工艺类型" required layout="vertical">
          <Selector
            options={nameOptions(workmanships.data)}
            value={values.workmanship ? [values.workmanship] : []}
            onChange={(v) => set('workmanship')(v[0] ?? '')}
            data-testid="q-workmanship"
          />
        </Form.Item>
        <Form.Item label="报警次数" required>
          <Input
            type="number"
            inputMode="numeric"
            placeholder="请输入报警次数"
            value={values.count}
            onChange={set('count')}
            data-testid="q-count"
          />
        </Form.Item>
        <Form.Item label="报警内容" required>
          <Input
            placeholder="请输入报警内容"
            value={values.warningContent}
            onChange={set('warningContent')}
            data-testid="q-warning"
          />
        </Form.Item>
        <Form.Item label="现场描述" required layout="vertical">
          <TextArea
            placeholder="请输入现场描述"
            autoSize
            value={values.facaDescription}
            onChange={set('facaDescription')}
            data-testid="q-description"
          />
        </Form.Item>
        <Form.Item label="报警时长">
          <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
            {DURATION_PARTS.map(([key, unit]) => (
              <Fragment key={key}>
                <Input
                  inputMode="numeric"
                  value={values[key]}
                  onChange={set(key)}
                  style={{ width: 44, flex: 'none' }}
                  aria-label={unit}
                />
                {unit}
              </Fragment>
            ))}
          </div>
        </Form.Item>
        <Form.Item label="影响参数" required layout="vertical">
          <Selector
            multiple
            options={nameOptions(influences.data)}
            value={values.influenceParameters}
            onChange={set('influenceParameters')}
            data-testid="q-influence"
          />
        </Form.Item>
        <Form.Item label="数据来源">
          <span data-testid="q-data-from">{values.dataFrom}</span>
        </Form.Item>
        <MediaFields
          pics={values.pics}
          videos={values.videos}
          onPics={set('pics')}
          onVideos={set('videos')}
          testId="q"
        />
      </Form>
      <SubmitFooter pending={save.pending} onSubmit={submit} testId="q-submit" />
    </PageFrame>
  );
};

export default AddQuestionPage;
