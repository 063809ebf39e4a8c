import { Button } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { links } from '../../../shared/paths.ts';
import { useQuestion } from '../api.ts';
import { Card, Footer, PageFrame } from '../components/page-frame.tsx';
import { CaInfoView, FaInfoView, QuestionInfo } from '../components/question-card.tsx';

const EditFacaPage = () => {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const question = useQuestion(id);
  const q = question.data;
  const edit = (label: string, to: string, testId: string) => (
    <Button
      size="mini"
      color="primary"
      fill="outline"
      onClick={() => void navigate(to)}
      data-testid={testId}
    >
      {label}
    </Button>
  );

  return (
    <PageFrame title="编辑FACA">
      {!q ? (
        <ListState
          state={question.isError ? 'error' : id ? 'loading' : 'empty'}
          onRetry={() => void question.refetch()}
        />
      ) : (
        <>
          <QuestionInfo
            q={q}
            action={edit('编辑', links.facaAddQuestion({ id: q.id }), 'edit-question')}
          />
          {q.faInfos.map((fa) => (
            <Card key={fa.id} testId="fa-card">
              <FaInfoView
                fa={fa}
                action={edit('编辑FA', links.facaEditFaOrCa(q.id, 'FA', fa.id), 'edit-fa')}
              />
              {fa.caInfos.map((ca) => (
                <div
                  key={ca.id}
                  style={{ borderTop: '1px solid #eee', marginTop: 8, paddingTop: 8 }}
                >
                  <CaInfoView
                    ca={ca}
                    action={edit('编辑CA', links.facaEditFaOrCa(q.id, 'CA', ca.id), 'edit-ca')}
                  />
                </div>
              ))}
            </Card>
          ))}
          <Footer>
            <div style={{ display: 'flex', gap: 8 }}>
              <Button
                block
                color="primary"
                fill="outline"
                onClick={() => void navigate(links.facaEditFaOrCa(q.id, 'FA'))}
                data-testid="add-fa"
              >
                新增FA
              </Button>
              <Button
                block
                color="primary"
                disabled={q.faInfos.length === 0}
                onClick={() => void navigate(links.facaEditFaOrCa(q.id, 'CA'))}
                data-testid="add-ca"
              >
                新增CA
              </Button>
            </div>
          </Footer>
        </>
      )}
    </PageFrame>
  );
};

export default EditFacaPage;
