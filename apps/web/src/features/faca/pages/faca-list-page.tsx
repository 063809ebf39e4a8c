import type { FacaInfo } from '@linewatch/contracts/faca';
import { FACA_STATUSES, facaStatusLabels } from '@linewatch/contracts/rules/question-statuses';
import { Button, Collapse, Input, Selector } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { listStateOf } from '../../../shared/list-state.ts';
import { links, paths } from '../../../shared/paths.ts';
import { nameOptions, useOptions, useQuestionPages, type QuestionFilter } from '../api.ts';
import { Card, Footer, InfoRow, PageFrame, SearchActions } from '../components/page-frame.tsx';
import { FacaStatusTags } from '../components/status-tags.tsx';

const statusOptions = FACA_STATUSES.map((v) => ({
  label: facaStatusLabels[v]!,
  value: String(v) as `${typeof v}`,
}));

const QuestionCard = ({ q, onOpen }: { q: FacaInfo; onOpen: () => void }) => (
  <div onClick={onOpen} role="button" tabIndex={0} data-testid="faca-card">
    <Card>
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
        <strong data-testid="faca-card-sn">{q.snCode}</strong>
        <FacaStatusTags flags={q.facaStatus} />
      </div>
      <InfoRow label="报警内容">{q.warningContent}</InfoRow>
      <InfoRow label="工艺类型">{q.workmanship}</InfoRow>
      <InfoRow label="现场描述">{q.facaDescription}</InfoRow>
      <InfoRow label="更新">
        {q.updateUser} {formatDateTime(q.updateTime)}
      </InfoRow>
    </Card>
  </div>
);

/** The conditions of a search in a line (the panel folds after a search, this stays). */
const filterSummary = (filter: QuestionFilter): string =>
  [
    filter.snCode ? `SN码：${filter.snCode}` : '',
    filter.warningContent ? `报警内容：${filter.warningContent}` : '',
    filter.workmanship ? `工艺类型：${filter.workmanship}` : '',
    filter.facaStatus ? `状态：${facaStatusLabels[Number(filter.facaStatus)] ?? ''}` : '',
  ]
    .filter(Boolean)
    .join('，');

const FacaListPage = () => {
  const navigate = useNavigate();
  const workmanships = useOptions('workmanship');
  const [draft, setDraft] = useState<QuestionFilter>({});
  const [filter, setFilter] = useState<QuestionFilter>({});
  // The search panel closes when a search runs, so the phone shows what was found.
  const [searchOpen, setSearchOpen] = useState(false);
  const pages = useQuestionPages(filter);
  const items = pages.data?.pages.flatMap((p) => p.content) ?? [];
  const searching = Object.values(filter).some(Boolean);
  const reset = () => {
    setDraft({});
    setFilter({});
  };

  return (
    <PageFrame
      title="FACA"
      right={
        <Button
          size="mini"
          fill="none"
          color="primary"
          onClick={() => void navigate(paths.facaTask)}
        >
          我的任务
        </Button>
      }
    >
      <Collapse
        activeKey={searchOpen ? ['search'] : []}
        onChange={(keys) => setSearchOpen(keys.includes('search'))}
      >
        <Collapse.Panel
          key="search"
          title={
            searching && !searchOpen ? (
              <span data-testid="faca-active-filter">搜索：{filterSummary(filter)}</span>
            ) : (
              '搜索'
            )
          }
          data-testid="faca-search-toggle"
        >
          <Input
            placeholder="设备SN码"
            value={draft.snCode ?? ''}
            onChange={(snCode) => setDraft({ ...draft, snCode })}
            data-testid="faca-search-sn"
          />
          <Input
            placeholder="报警内容"
            value={draft.warningContent ?? ''}
            onChange={(warningContent) => setDraft({ ...draft, warningContent })}
          />
          <div style={{ margin: '8px 0' }}>工艺类型</div>
          <Selector
            options={nameOptions(workmanships.data)}
            value={draft.workmanship ? [draft.workmanship] : []}
            onChange={(v) => setDraft({ ...draft, workmanship: v[0] ?? '' })}
            data-testid="faca-search-workmanship"
          />
          <div style={{ margin: '8px 0' }}>状态</div>
          <Selector
            options={statusOptions}
            value={draft.facaStatus ? [draft.facaStatus] : []}
            onChange={(v) => setDraft({ ...draft, facaStatus: v[0] ?? '' })}
          />
          <SearchActions
            onReset={reset}
            onSearch={() => {
              setFilter(draft);
              setSearchOpen(false);
            }}
            testId="faca-search"
          />
        </Collapse.Panel>
      </Collapse>
      <div role="list" aria-label="FACA问题">
        {items.map((q) => (
          <div role="listitem" key={q.id}>
            <QuestionCard q={q} onOpen={() => void navigate(links.facaEditFaca(q.id))} />
          </div>
        ))}
      </div>
      <ListState
        state={listStateOf({
          itemCount: items.length,
          isPending: pages.isPending,
          isError: pages.isError,
          isRefetchError: pages.isRefetchError,
          isFetchingNextPage: pages.isFetchingNextPage,
          hasNextPage: pages.hasNextPage,
          searching,
        })}
        onRetry={() => void pages.refetch()}
        onLoadMore={() => void pages.fetchNextPage()}
      />
      <Footer>
        <Button
          block
          color="primary"
          onClick={() => void navigate(links.facaAddQuestion())}
          data-testid="faca-add"
        >
          <AddOutline /> 新增问题
        </Button>
      </Footer>
    </PageFrame>
  );
};

export default FacaListPage;
