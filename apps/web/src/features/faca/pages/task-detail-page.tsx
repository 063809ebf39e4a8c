import type { MediaRef } from '@linewatch/contracts/faca';
import { CA_STATUS } from '@linewatch/contracts/faca-labels';
import { facaApi } from '@linewatch/contracts/faca-api';
import { Form, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { useQuestion } from '../api.ts';
import { MediaUploader } from '../components/media-uploader.tsx';
import { Card, PageFrame, SubmitFooter } from '../components/page-frame.tsx';
import { CaInfoView, FaInfoView, QuestionInfo } from '../components/question-card.tsx';
import { useFormSave } from '../components/validate.ts';

const TaskDetailPage = () => {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const facaInfoId = Number(params.get('facaInfoId')) || null;
  const faInfoId = Number(params.get('faInfoId'));
  const caInfoId = Number(params.get('caInfoId'));
  const question = useQuestion(facaInfoId);
  const save = useFormSave(
    facaApi.submitTask,
    () => import('@linewatch/contracts/faca').then((c) => c.taskResultBody),
    () => void navigate(-1),
  );
  const [treatment, setTreatment] = useState<string>('');
  const [ngReason, setNgReason] = useState('');
  const [pics, setPics] = useState<MediaRef[]>([]);
  const q = question.data;
  const fa = q?.faInfos.find((f) => f.id === faInfoId);
  const ca = fa?.caInfos.find((c) => c.id === caInfoId);

  const submit = () =>
    void save.submit({ caId: caInfoId, treatment, ngReason, picIds: pics.map((p) => p.id) });

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
            <Form layout="vertical">
              <Form.Item label="处理结果" required>
                <Selector
                  options={[
                    { label: 'OK', value: String(CA_STATUS.ok) },
                    { label: 'NG', value: String(CA_STATUS.ng) },
                  ]}
                  value={treatment ? [treatment] : []}
                  onChange={(v) => setTreatment(v[0] ?? '')}
                  data-testid="task-treatment"
                />
              </Form.Item>
              {treatment === String(CA_STATUS.ng) ? (
                <Form.Item label="NG原因" required>
                  <TextArea
                    placeholder="请输入NG原因"
                    autoSize
                    value={ngReason}
                    onChange={setNgReason}
                    data-testid="task-ng-reason"
                  />
                </Form.Item>
              ) : null}
              <Form.Item label="图片">
                <MediaUploader type="pic" value={pics} onChange={setPics} testId="task-pics" />
              </Form.Item>
            </Form>
          </Card>
          <SubmitFooter
            pending={save.pending}
            onSubmit={submit}
            testId="task-submit"
            label="提交"
          />
        </>
      )}
    </PageFrame>
  );
};

export default TaskDetailPage;
