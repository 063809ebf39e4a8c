import { Button, List, Tag } from 'antd-mobile';
import { lazy, useState } from 'react';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { useApplicationsQuery, useSmsOutboxQuery } from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import type { Deciding } from '../components/decision-popup.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import styles from '../components/admin.module.css';

const DecisionPopup = lazy(() => import('../components/decision-popup.tsx'));

const statusTag = {
  pending: <Tag color="warning">待审核</Tag>,
  approved: <Tag color="success">已通过</Tag>,
  rejected: <Tag color="danger">已驳回</Tag>,
} as const;

const ApplicationsPage = () => {
  const applications = useApplicationsQuery();
  const sms = useSmsOutboxQuery();
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const close = () => setDeciding(null);

  const list = applications.data ?? [];
  return (
    <AdminPage title="账号申请" testId="admin-applications">
      <List>
        {list.map((a) => (
          <List.Item
            key={a.id}
            data-testid={`application-${a.psnCode}`}
            description={
              <span className={styles.meta}>
                {a.psnCode} · {a.mobile} · {formatDateTime(a.createdAt)}
                {a.reason ? ` · ${a.reason}` : ''}
              </span>
            }
            extra={
              a.status === 'pending' ? (
                <span className={styles.tags}>
                  <Button
                    size="mini"
                    color="primary"
                    onClick={() => setDeciding({ kind: 'approve', item: a })}
                    data-testid="application-approve"
                  >
                    通过
                  </Button>
                  <Button
                    size="mini"
                    color="danger"
                    fill="outline"
                    onClick={() => setDeciding({ kind: 'reject', item: a })}
                  >
                    驳回
                  </Button>
                </span>
              ) : (
                statusTag[a.status]
              )
            }
          >
            {a.name}
          </List.Item>
        ))}
      </List>
      <ListFooter query={applications} itemCount={list.length} />

      <div className={styles.section}>短信记录（未接入短信服务时，验证码与初始密码显示在这里）</div>
      <List data-testid="sms-outbox">
        {(sms.data ?? []).map((m) => (
          <List.Item key={`${m.sentAt}-${m.mobile}`} description={formatDateTime(m.sentAt)}>
            <span className={styles.meta}>{m.mobile}</span> {m.text}
          </List.Item>
        ))}
      </List>

      <OnFirstOpen open={deciding !== null}>
        <DecisionPopup deciding={deciding} onClose={close} />
      </OnFirstOpen>
    </AdminPage>
  );
};

export default ApplicationsPage;
