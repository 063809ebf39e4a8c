import { Button, List } from 'antd-mobile';
import { useState } from 'react';
import { ListState } from '../../../shared/components/list-state.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { useAuditQuery } from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import styles from '../components/admin.module.css';

const PAGE = 20;

const AuditPage = () => {
  const [pageIndex, setPageIndex] = useState(1);
  const audit = useAuditQuery(pageIndex);
  const entries = audit.data?.data ?? [];
  const pages = Math.max(1, Math.ceil((audit.data?.total ?? 0) / PAGE));
  return (
    <AdminPage title="审计日志" testId="admin-audit">
      <List>
        {entries.map((e) => (
          <List.Item
            key={e.id}
            data-testid="audit-entry"
            description={
              <>
                <span className={styles.meta}>
                  {e.actorName} · {formatDateTime(e.createdAt)}
                </span>
                {e.before ? (
                  <pre className={styles.json}>前：{JSON.stringify(e.before)}</pre>
                ) : null}
                {e.after ? <pre className={styles.json}>后：{JSON.stringify(e.after)}</pre> : null}
              </>
            }
          >
            {e.action} <span className={styles.meta}>{e.target}</span>
          </List.Item>
        ))}
      </List>
      {audit.isPending || audit.isError || entries.length === 0 ? (
        <ListState
          state={audit.isPending ? 'loading' : audit.isError ? 'error' : 'empty'}
          onRetry={() => void audit.refetch()}
        />
      ) : (
        <div className={styles.pager}>
          <Button size="small" disabled={pageIndex <= 1} onClick={() => setPageIndex((p) => p - 1)}>
            上一页
          </Button>
          <span className={styles.meta}>
            {pageIndex} / {pages}
          </span>
          <Button
            size="small"
            disabled={pageIndex >= pages}
            onClick={() => setPageIndex((p) => p + 1)}
          >
            下一页
          </Button>
        </div>
      )}
    </AdminPage>
  );
};

export default AuditPage;
