import type { Task } from '@linewatch/contracts/faca';
import {
  CA_STATUSES,
  caStatusLabels,
  TASK_STATUSES,
  taskStatusLabels,
} from '@linewatch/contracts/rules/ca-statuses';
import { Input, Selector } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { listStateOf } from '../../../shared/list-state.ts';
import { links } from '../../../shared/paths.ts';
import { useTaskPages, type TaskFilter } from '../api.ts';
import { Card, InfoRow, PageFrame, SearchActions } from '../components/page-frame.tsx';
import { CaStatusTag } from '../components/status-tags.tsx';

const TaskCard = ({ t, onOpen }: { t: Task; onOpen: () => void }) => (
  <div onClick={onOpen} role="button" tabIndex={0} data-testid="task-card">
    <Card>
      <div style={{ display: 'flex', justifyContent: 'space-between' }}>
        <strong>{t.snCode}</strong>
        <span>
          {taskStatusLabels[t.taskStatus]} <CaStatusTag status={t.treatment} overdue={t.overdue} />
        </span>
      </div>
      <InfoRow label={`CA${t.caNum}`}>{t.taskContent}</InfoRow>
      <InfoRow label="处理人">{t.handles}</InfoRow>
      <InfoRow label="纳期">{t.resolvingTime}</InfoRow>
    </Card>
  </div>
);

const TaskListPage = () => {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<TaskFilter>({});
  const [filter, setFilter] = useState<TaskFilter>({});
  const pages = useTaskPages(filter);
  const items = pages.data?.pages.flatMap((p) => p.content) ?? [];
  return (
    <PageFrame title="我的任务">
      <Card>
        <Input
          placeholder="设备SN码"
          value={draft.snCode ?? ''}
          onChange={(snCode) => setDraft({ ...draft, snCode })}
          data-testid="task-search-sn"
        />
        <Selector
          style={{ marginTop: 8 }}
          options={TASK_STATUSES.map((s) => ({
            label: taskStatusLabels[s]!,
            value: String(s) as `${typeof s}`,
          }))}
          value={draft.taskStatus ? [draft.taskStatus] : []}
          onChange={(v) => setDraft({ ...draft, taskStatus: v[0] ?? '' })}
        />
        <Selector
          style={{ marginTop: 8 }}
          options={CA_STATUSES.map((s) => ({
            label: caStatusLabels[s]!,
            value: String(s) as `${typeof s}`,
          }))}
          value={draft.treatment ? [draft.treatment] : []}
          onChange={(v) => setDraft({ ...draft, treatment: v[0] ?? '' })}
        />
        <SearchActions
          onReset={() => {
            setDraft({});
            setFilter({});
          }}
          onSearch={() => setFilter(draft)}
          testId="task-search"
        />
      </Card>
      {items.map((t) => (
        <TaskCard
          key={t.caId}
          t={t}
          onOpen={() => void navigate(links.facaEditTask(t.facaInfoId, t.faInfoId, t.caId))}
        />
      ))}
      <ListState
        state={listStateOf({
          itemCount: items.length,
          isPending: pages.isPending,
          isError: pages.isError,
          isRefetchError: pages.isRefetchError,
          isFetchingNextPage: pages.isFetchingNextPage,
          hasNextPage: pages.hasNextPage,
          searching: Object.values(filter).some(Boolean),
        })}
        onRetry={() => void pages.refetch()}
        onLoadMore={() => void pages.fetchNextPage()}
      />
    </PageFrame>
  );
};

export default TaskListPage;
