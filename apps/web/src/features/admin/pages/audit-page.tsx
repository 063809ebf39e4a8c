import {
  auditActionLabels,
  auditSummary,
  auditTargetLabel,
} from '@linewatch/contracts/audit-labels';
import { PAGE_SIZE, pageCount } from '@linewatch/contracts/rules/paging';
import { List } from 'antd-mobile';
import { useState } from 'react';
import { Pager } from '../../../shared/components/pager.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { useAuditQuery } from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import styles from '../components/admin.module.css';

const AuditPage = () => {
  const [pageIndex, setPageIndex] = useState(1);
  const audit = useAuditQuery(pageIndex);
  const entries = audit.data?.data ?? [];
  const pages = pageCount(audit.data?.total ?? 0, PAGE_SIZE.admin);
  return (
    <AdminPage title="审计日志" testId="admin-audit">
      <List>
        {entries.map((e) => {
          const summary = auditSummary(e, formatDateTime);
          return (
            <List.Item
              key={e.id}
              data-testid="audit-entry"
              description={
                <>
                  <span className={styles.meta}>
                    {e.actorName} · {formatDateTime(e.createdAt)}
                  </span>
                  {summary !== null ? (
                    <div className={styles.summary}>{summary}</div>
                  ) : (
                    <>
                      {e.before ? (
                        <pre className={styles.json}>前：{JSON.stringify(e.before)}</pre>
                      ) : null}
                      {e.after ? (
                        <pre className={styles.json}>后：{JSON.stringify(e.after)}</pre>
                      ) : null}
                    </>
                  )}
                </>
              }
            >
              {auditActionLabels[e.action] ?? e.action}{' '}
              <span className={styles.meta}>{auditTargetLabel(e.target)}</span>
            </List.Item>
          );
        })}
      </List>
      <ListFooter
        query={audit}
        itemCount={entries.length}
        pager={
          <Pager page={pageIndex} totalPage={pages} onChange={setPageIndex} testId="audit-pager" />
        }
      />
    </AdminPage>
  );
};

export default AuditPage;
