import type { FacaInfo, MediaRef } from '@linewatch/contracts/faca';
import { DATA_FROM_MANUAL } from '@linewatch/contracts/faca-labels';
import { facaApi } from '@linewatch/contracts/faca-api';
import { Input, Selector } from 'antd-mobile';
import { Fragment, useEffect } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { ListForm, ListFormItem } from '../../../shared/components/list-form.tsx';
import { links } from '../../../shared/paths.ts';
import { nameOptions, useOptions, useQuestion } from '../api.ts';
import { MediaFields } from '../components/media-fields.tsx';
import { PageFrame, SubmitFooter } from '../components/page-frame.tsx';
import { useFacaForm } from '../components/use-faca-form.ts';
import { FormTextArea } from '../components/form-text-area.tsx';

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

/** The request the form makes (addOrUpdateFacaInfo), as the contract's schema checks it. */
const toBody = (id: number | null) => (values: Values) => ({
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

const AddQuestionPage = () => {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const existing = useQuestion(id);
  const workmanships = useOptions('workmanship');
  const influences = useOptions('influence');
  const { form, pending, submit } = useFacaForm({
    defaultValues: initial(params),
    endpoint: facaApi.addOrUpdateFacaInfo,
    loadSchema: () => import('@linewatch/contracts/faca').then((c) => c.facaInfoBody),
    toBody: toBody(id),
    onSaved: (saved) => {
      void navigate(links.facaEditFaca(saved.id), { replace: true });
    },
  });
  const { control, reset } = form;
  useEffect(() => {
    if (existing.data) reset(fromQuestion(existing.data));
  }, [existing.data, reset]);
  const dataFrom = useWatch({ control, name: 'dataFrom' });

  return (
    <PageFrame title={id ? '编辑问题' : '新增问题'}>
      <ListForm layout="horizontal" testId="question-form">
        <ListFormItem label="设备SN码">
          <Controller
            control={control}
            name="snCode"
            render={({ field }) => (
              <Input
                placeholder="请输入设备SN码"
                value={field.value}
                onChange={field.onChange}
                data-testid="q-sn"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="工艺类型" layout="vertical">
          <Controller
            control={control}
            name="workmanship"
            render={({ field }) => (
              <Selector
                options={nameOptions(workmanships.data)}
                value={field.value ? [field.value] : []}
                onChange={(v) => field.onChange(v[0] ?? '')}
                data-testid="q-workmanship"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="报警次数">
          <Controller
            control={control}
            name="count"
            render={({ field }) => (
              <Input
                type="number"
                inputMode="numeric"
                placeholder="请输入报警次数"
                value={field.value}
                onChange={field.onChange}
                data-testid="q-count"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="报警内容">
          <Controller
            control={control}
            name="warningContent"
            render={({ field }) => (
              <Input
                placeholder="请输入报警内容"
                value={field.value}
                onChange={field.onChange}
                data-testid="q-warning"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="现场描述" layout="vertical">
          <FormTextArea
            control={control}
            name="facaDescription"
            placeholder="请输入现场描述"
            data-testid="q-description"
          />
        </ListFormItem>
        <ListFormItem label="报警时长">
          <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
            {DURATION_PARTS.map(([key, unit]) => (
              <Fragment key={key}>
                <Controller
                  control={control}
                  name={key}
                  render={({ field }) => (
                    <Input
                      inputMode="numeric"
                      value={field.value}
                      onChange={field.onChange}
                      style={{ width: 44, flex: 'none' }}
                      aria-label={unit}
                    />
                  )}
                />
                {unit}
              </Fragment>
            ))}
          </div>
        </ListFormItem>
        <ListFormItem label="影响参数" layout="vertical">
          <Controller
            control={control}
            name="influenceParameters"
            render={({ field }) => (
              <Selector
                multiple
                options={nameOptions(influences.data)}
                value={field.value}
                onChange={field.onChange}
                data-testid="q-influence"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="数据来源">
          <span data-testid="q-data-from">{dataFrom}</span>
        </ListFormItem>
        <MediaFields control={control} testId="q" />
      </ListForm>
      <SubmitFooter pending={pending} onSubmit={submit} testId="q-submit" />
    </PageFrame>
  );
};

export default AddQuestionPage;
