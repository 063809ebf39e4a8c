import type { AdminUser, CreateUserBody } from '@linewatch/contracts/admin';
import { ActionSheet, Button, Form, Input, List, Popup, Switch, Tag } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { confirmAction } from '../../../shared/confirm.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import {
  useCreateUser,
  useDisableUser,
  useLinesQuery,
  useResetPassword,
  useUpdateUser,
  useUsersQuery,
} from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import { LineSelector } from '../components/line-selector.tsx';
import styles from '../components/admin.module.css';
import { adminSchemas, validate } from '../validate.ts';

type Editing = { kind: 'create' } | { kind: 'lines' | 'password'; user: AdminUser } | null;

const UsersPage = () => {
  const users = useUsersQuery();
  const lineNames = new Map((useLinesQuery().data ?? []).map((l) => [l.id, l.name]));
  const [editing, setEditing] = useState<Editing>(null);
  const [acting, setActing] = useState<AdminUser | null>(null);
  const create = useCreateUser();
  const update = useUpdateUser();
  const disable = useDisableUser();
  const reset = useResetPassword();
  const close = () => setEditing(null);
  const saved = () => {
    toastSuccess('保存成功');
    close();
  };

  const onCreate = async (values: CreateUserBody) => {
    const body = validate((await adminSchemas()).createUserBody, values);
    if (body) create.mutate(body, { onSuccess: saved });
  };
  const onLines = (user: AdminUser, values: { lineIds?: number[] }) =>
    update.mutate({ id: user.id, lineIds: values.lineIds ?? [] }, { onSuccess: saved });
  const onPassword = async (user: AdminUser, values: { password?: string }) => {
    const body = validate((await adminSchemas()).resetPasswordBody, { id: user.id, ...values });
    if (body) reset.mutate(body, { onSuccess: saved });
  };
  const toggleDisabled = async (user: AdminUser) => {
    if (!user.disabled) {
      if (!(await confirmAction(`停用 ${user.name} 后其登录会立即失效，是否继续？`))) return;
    }
    disable.mutate({ id: user.id, disabled: !user.disabled }, { onSuccess: saved });
  };

  const list = users.data ?? [];
  return (
    <AdminPage
      title="用户管理"
      testId="admin-users"
      right={
        <Button
          size="mini"
          color="primary"
          onClick={() => setEditing({ kind: 'create' })}
          data-testid="user-create"
        >
          <AddOutline /> 新建
        </Button>
      }
    >
      <List>
        {list.map((u) => (
          <List.Item
            key={u.id}
            onClick={() => setActing(u)}
            data-testid={`user-${u.psnCode}`}
            description={
              <span className={styles.meta}>
                {u.lineIds.map((id) => lineNames.get(id)).join('、') || '未授权产线'}
              </span>
            }
            extra={
              <span className={styles.tags}>
                {u.isAdmin ? <Tag color="primary">管理员</Tag> : null}
                {u.disabled ? <Tag color="danger">已停用</Tag> : null}
              </span>
            }
          >
            {u.name} <span className={styles.meta}>{u.psnCode}</span>
          </List.Item>
        ))}
      </List>
      <ListFooter query={users} itemCount={list.length} />

      <ActionSheet
        visible={acting !== null}
        onClose={() => setActing(null)}
        cancelText="取消"
        actions={
          acting
            ? [
                {
                  key: 'lines',
                  text: '产线授权',
                  onClick: () => setEditing({ kind: 'lines', user: acting }),
                },
                {
                  key: 'admin',
                  text: acting.isAdmin ? '取消管理员' : '设为管理员',
                  onClick: () =>
                    update.mutate(
                      { id: acting.id, isAdmin: !acting.isAdmin },
                      { onSuccess: saved },
                    ),
                },
                {
                  key: 'password',
                  text: '重置密码',
                  onClick: () => setEditing({ kind: 'password', user: acting }),
                },
                {
                  key: 'disable',
                  text: acting.disabled ? '启用' : '停用',
                  danger: !acting.disabled,
                  onClick: () => void toggleDisabled(acting),
                },
              ]
            : []
        }
        onAction={() => setActing(null)}
      />

      <Popup
        visible={editing !== null}
        onMaskClick={close}
        destroyOnClose
        bodyClassName={styles.popup}
      >
        {editing?.kind === 'create' ? (
          <Form
            initialValues={{
              psnCode: '',
              name: '',
              mobile: '',
              password: '',
              isAdmin: false,
              lineIds: [],
            }}
            onFinish={(v: CreateUserBody) => void onCreate(v)}
            footer={
              <Button
                block
                type="submit"
                color="primary"
                loading={create.isPending}
                data-testid="user-save"
              >
                保存
              </Button>
            }
          >
            <Form.Header>新建用户</Form.Header>
            <Form.Item name="psnCode" label="工号">
              <Input placeholder="请输入工号" data-testid="user-psn" />
            </Form.Item>
            <Form.Item name="name" label="姓名">
              <Input placeholder="请输入姓名" data-testid="user-name" />
            </Form.Item>
            <Form.Item name="mobile" label="手机号">
              <Input placeholder="选填" type="tel" />
            </Form.Item>
            <Form.Item name="password" label="初始密码">
              <Input placeholder="至少8位" type="password" data-testid="user-password" />
            </Form.Item>
            <Form.Item name="isAdmin" label="管理员" valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="lineIds" label="产线">
              <LineSelector />
            </Form.Item>
          </Form>
        ) : editing?.kind === 'lines' ? (
          <Form
            initialValues={{ lineIds: editing.user.lineIds }}
            onFinish={(v: { lineIds?: number[] }) => onLines(editing.user, v)}
            footer={
              <Button
                block
                type="submit"
                color="primary"
                loading={update.isPending}
                data-testid="lines-save"
              >
                保存
              </Button>
            }
          >
            <Form.Header>{editing.user.name} 的产线</Form.Header>
            <Form.Item name="lineIds">
              <LineSelector />
            </Form.Item>
          </Form>
        ) : editing?.kind === 'password' ? (
          <Form
            initialValues={{ password: '' }}
            onFinish={(v: { password?: string }) => void onPassword(editing.user, v)}
            footer={
              <Button block type="submit" color="primary" loading={reset.isPending}>
                保存
              </Button>
            }
          >
            <Form.Header>重置 {editing.user.name} 的密码</Form.Header>
            <Form.Item name="password" label="新密码">
              <Input placeholder="至少8位" type="password" />
            </Form.Item>
          </Form>
        ) : null}
      </Popup>
    </AdminPage>
  );
};

export default UsersPage;
