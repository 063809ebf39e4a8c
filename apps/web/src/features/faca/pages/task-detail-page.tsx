import type { MediaRef } from '@linewatch/contracts/faca';
import { CA_STATUS, caStatusLabels, needsNgReason } from '@linewatch/contracts/rules/ca-statuses';
import { facaApi } from '@linewatch/contracts/faca-api';
import { Selector } from 'antd-mobile';
import { Controller, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { ListForm, ListFormItem } from '../../../shared/components/list-form.tsx';
import { ListState } from '../../../shared/components/list-state.tsx';
import { useQuestion } from '../api.ts';
import { MediaUploader } from '../components/media-uploader.tsx';
import { Card, PageFrame, SubmitFooter } from '../components/page-frame.tsx';
import { CaInfoView, FaInfoView, QuestionInfo } from '../components/question-card.tsx';
import { useFacaForm } from '../components/use-faca-form.ts';
import { FormTextArea } from '../components/form-text-area.tsx';
import { useGoBack } from '../../../shared/use-go-back.ts';

interface TaskValues {
  treatment: string;
  ngReason: string;
  pics: MediaRef[];
}

const TaskDetailPage = () => {
  const goBack = useGoBack();
  const [params] = useSearchParams();
  const facaInfoId = Number(params.get('facaInfoId')) || null;
  const faInfoId = Number(params.get('faInfoId'));
  const caInfoId = Number(params.get('caInfoId'));
  const question = useQuestion(facaInfoId);
  const { form, pending, submit } = useFacaForm({
    defaultValues: { treatment: '', ngReason: '', pics: [] },
    endpoint: facaApi.submitTask,
    loadSchema: () => import('@linewatch/contracts/faca').then((c) => c.taskResultBody),
    toBody: (values: TaskValues) => ({
      caId: caInfoId,
      treatment: values.treatment,
      ngReason: values.ngReason,
      picIds: values.pics.map((p) => p.id),
    }),
    onSaved: goBack,
  });
  const { control } = form;
  const treatment = useWatch({ control, name: 'treatment' });
  const q = question.data;
  const fa = q?.faInfos.find((f) => f.id === faInfoId);
  const ca = fa?.caInfos.find((c) => c.id === caInfoId);

  return (
    <PageFrame title="任务详情">
      {!q || !fa || !ca ? (
        <ListState
          state={question.isError ? 'error' : question.isPending ? 'loading' : 'empty'}
          onRetry={() => void question.refetch()}
        />
      ) : (
        <>
          <Card testId="task-ca">
            <CaInfoView ca={ca} />
          </Card>
          <Card testId="task-fa">
            <FaInfoView fa={fa} />
          </Card>
          <QuestionInfo q={q} />
          <Card testId="task-result">
            <ListForm>
              <ListFormItem label="处理结果">
                <Controller
                  control={control}
                  name="treatment"
                  render={({ field }) => (
                    <Selector
                      options={[
                        { label: caStatusLabels[CA_STATUS.ok]!, value: String(CA_STATUS.ok) },
                        { label: caStatusLabels[CA_STATUS.ng]!, value: String(CA_STATUS.ng) },
                      ]}
                      value={field.value ? [field.value] : []}
                      onChange={(v) => field.onChange(v[0] ?? '')}
                      data-testid="task-treatment"
                    />
                  )}
                />
              </ListFormItem>
              {needsNgReason(Number(treatment)) ? (
                <ListFormItem label="NG原因">
                  <FormTextArea
                    control={control}
                    name="ngReason"
                    placeholder="请输入NG原因"
                    data-testid="task-ng-reason"
                  />
                </ListFormItem>
              ) : null}
              <ListFormItem label="图片">
                <Controller
                  control={control}
                  name="pics"
                  render={({ field }) => (
                    <MediaUploader
                      type="pic"
                      value={field.value}
                      onChange={field.onChange}
                      testId="task-pics"
                    />
                  )}
                />
              </ListFormItem>
            </ListForm>
          </Card>
          <SubmitFooter pending={pending} onSubmit={submit} testId="task-submit" label="提交" />
        </>
      )}
    </PageFrame>
  );
};

export default TaskDetailPage;
