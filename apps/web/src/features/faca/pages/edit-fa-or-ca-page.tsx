import type { FacaInfo, MediaRef } from '@linewatch/contracts/faca';
import { facaApi } from '@linewatch/contracts/faca-api';
import {
  CA_STATUS,
  CA_STATUSES,
  caStatusLabels,
  needsNgReason,
} from '@linewatch/contracts/rules/ca-statuses';
import { Input, Selector } from 'antd-mobile';
import { Controller, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { ListForm, ListFormItem } from '../../../shared/components/list-form.tsx';
import { useHandlers, useQuestion } from '../api.ts';
import { MediaFields } from '../components/media-fields.tsx';
import { PageFrame, SubmitFooter } from '../components/page-frame.tsx';
import { useFacaForm } from '../components/use-faca-form.ts';
import { FormTextArea } from '../components/form-text-area.tsx';
import { useGoBack } from '../../../shared/use-go-back.ts';

interface FaValues {
  faDescription: string;
  pics: MediaRef[];
  videos: MediaRef[];
}

const FaForm = ({ q, id }: { q: FacaInfo; id: number | null }) => {
  const goBack = useGoBack();
  const fa = q.faInfos.find((f) => f.id === id);
  const { form, pending, submit } = useFacaForm({
    defaultValues: {
      faDescription: fa?.faDescription ?? '',
      pics: fa?.faPicList ?? [],
      videos: fa?.faVideoList ?? [],
    },
    endpoint: facaApi.addOrUpdateFaInfo,
    loadSchema: () => import('@linewatch/contracts/faca').then((c) => c.faInfoBody),
    toBody: (values: FaValues) => ({
      ...(id ? { id } : {}),
      facaInfoId: q.id,
      faDescription: values.faDescription,
      faPicIds: values.pics.map((p) => p.id),
      faVideoIds: values.videos.map((p) => p.id),
    }),
    onSaved: goBack,
  });
  return (
    <>
      <ListForm>
        <ListFormItem label="故障分析">
          <FormTextArea
            control={form.control}
            name="faDescription"
            placeholder="请输入故障分析"
            data-testid="fa-description"
          />
        </ListFormItem>
        <MediaFields control={form.control} testId="fa" />
      </ListForm>
      <SubmitFooter pending={pending} onSubmit={submit} testId="fa-submit" />
    </>
  );
};

interface CaValues {
  caDescription: string;
  faInfoId: string;
  handlers: string[];
  resolvingTime: string;
  caStatus: string;
  ngReason: string;
  pics: MediaRef[];
  videos: MediaRef[];
}

const CaForm = ({ q, id }: { q: FacaInfo; id: number | null }) => {
  const goBack = useGoBack();
  const handlers = useHandlers(q.snCode);
  const ca = q.faInfos.flatMap((f) => f.caInfos).find((c) => c.id === id);
  const { form, pending, submit } = useFacaForm({
    defaultValues: {
      caDescription: ca?.caDescription ?? '',
      faInfoId: ca ? String(ca.faInfoId) : '',
      handlers: ca?.handlerList.map((h) => String(h.userId)) ?? [],
      resolvingTime: ca?.resolvingTime ?? '',
      caStatus: String(ca?.caStatus ?? CA_STATUS.pending),
      ngReason: ca?.ngReason ?? '',
      pics: ca?.caPicList ?? [],
      videos: ca?.caVideoList ?? [],
    },
    endpoint: facaApi.addOrUpdateCaInfo,
    loadSchema: () => import('@linewatch/contracts/faca').then((c) => c.caInfoBody),
    toBody: (values: CaValues) => ({
      ...(id ? { id } : {}),
      facaInfoId: q.id,
      faInfoId: values.faInfoId,
      caDescription: values.caDescription,
      handler: values.handlers.join(','),
      resolvingTime: values.resolvingTime,
      caStatus: values.caStatus,
      ngReason: values.ngReason,
      caPicIds: values.pics.map((p) => p.id),
      caVideoIds: values.videos.map((p) => p.id),
    }),
    onSaved: goBack,
  });
  const { control } = form;
  const caStatus = useWatch({ control, name: 'caStatus' });
  return (
    <>
      <ListForm>
        <ListFormItem label="纠正措施">
          <FormTextArea
            control={control}
            name="caDescription"
            placeholder="请输入纠正措施"
            data-testid="ca-description"
          />
        </ListFormItem>
        <ListFormItem label="关联FA">
          <Controller
            control={control}
            name="faInfoId"
            render={({ field }) => (
              <Selector
                options={q.faInfos.map((f) => ({ label: `FA${f.faNum}`, value: String(f.id) }))}
                value={field.value ? [field.value] : []}
                onChange={(x) => field.onChange(x[0] ?? '')}
                data-testid="ca-fa"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="处理人">
          <Controller
            control={control}
            name="handlers"
            render={({ field }) => (
              <Selector
                multiple
                options={(handlers.data ?? []).map((h) => ({
                  label: h.name,
                  value: String(h.userId),
                }))}
                value={field.value}
                onChange={field.onChange}
                data-testid="ca-handlers"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="纳期">
          <Controller
            control={control}
            name="resolvingTime"
            render={({ field }) => (
              <Input
                type="date"
                placeholder="请选择纳期"
                value={field.value}
                onChange={field.onChange}
                data-testid="ca-due"
              />
            )}
          />
        </ListFormItem>
        <ListFormItem label="状态">
          <Controller
            control={control}
            name="caStatus"
            render={({ field }) => (
              <Selector
                options={CA_STATUSES.map((s) => ({ label: caStatusLabels[s]!, value: String(s) }))}
                value={[field.value]}
                onChange={(x) => field.onChange(x[0] ?? '0')}
              />
            )}
          />
        </ListFormItem>
        {needsNgReason(Number(caStatus)) ? (
          <ListFormItem label="NG原因">
            <FormTextArea control={control} name="ngReason" placeholder="请输入NG原因" />
          </ListFormItem>
        ) : null}
        <MediaFields control={control} testId="ca" />
      </ListForm>
      <SubmitFooter pending={pending} onSubmit={submit} testId="ca-submit" />
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
