import type { AdminApplication } from '@linewatch/contracts/admin';
import { Button, Dialog, Form, Input, List, Popup, Tag } from 'antd-mobile';
import { useState } from 'react';
import { formatDateTime } from '../../../shared/format.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import { useApplicationsQuery, useApprove, useReject, useSmsOutboxQuery } from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import { LineSelector } from '../components/line-selector.tsx';
import styles from '../components/admin.module.css';
import { adminSchemas, validate } from '../validate.ts';

const statusTag = {
  pending: <Tag color="warning">待审核</Tag>,
  approved: <Tag color="success">已通过</Tag>,
  rejected: <Tag color="danger">已驳回</Tag>,
} as const;

const ApplicationsPage = () => {
  const applications = useApplicationsQuery();
  const sms = useSmsOutboxQuery();
  const approve = useApprove();
  const reject = useReject();
  const [deciding, setDeciding] = useState<{
    kind: 'approve' | 'reject';
    item: AdminApplication;
  } | null>(null);
  const close = () => setDeciding(null);

  const onApprove = (item: AdminApplication, values: { lineIds?: number[] }) =>
    approve.mutate(
      { id: item.id, lineIds: values.lineIds ?? [] },
      {
        onSuccess: ({ initialPassword }) => {
          close();
          void Dialog.alert({
            title: '已通过',
            content: `账号 ${item.psnCode} 已创建，初始密码 ${initialPassword}（已短信发送给申请人）`,
          });
        },
      },
    );
  const onReject = async (item: AdminApplication, values: { reason?: string }) => {
    const body = validate((await adminSchemas()).rejectBody, { id: item.id, ...values });
    if (body)
      reject.mutate(body, {
        onSuccess: () => {
          toastSuccess('已驳回');
          close();
        },
      });
  };

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

      <Popup
        visible={deciding !== null}
        onMaskClick={close}
        destroyOnClose
        bodyClassName={styles.popup}
      >
        {deciding?.kind === 'approve' ? (
          <Form
            initialValues={{ lineIds: [] }}
            onFinish={(v: { lineIds?: number[] }) => onApprove(deciding.item, v)}
            footer={
              <Button
                block
                type="submit"
                color="primary"
                loading={approve.isPending}
                data-testid="approve-confirm"
              >
                通过并创建账号
              </Button>
            }
          >
            <Form.Header>通过 {deciding.item.name} 的申请：授权产线</Form.Header>
            <Form.Item name="lineIds">
              <LineSelector />
            </Form.Item>
          </Form>
        ) : deciding?.kind === 'reject' ? (
          <Form
            initialValues={{ reason: '' }}
            onFinish={(v: { reason?: string }) => void onReject(deciding.item, v)}
            footer={
              <Button block type="submit" color="danger" loading={reject.isPending}>
                驳回
              </Button>
            }
          >
            <Form.Header>驳回 {deciding.item.name} 的申请</Form.Header>
            <Form.Item name="reason" label="原因">
              <Input placeholder="请输入驳回原因" />
            </Form.Item>
          </Form>
        ) : null}
      </Popup>
    </AdminPage>
  );
};

export default ApplicationsPage;
