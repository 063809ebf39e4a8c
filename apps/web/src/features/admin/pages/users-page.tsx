import type { AdminUser } from '@linewatch/contracts/admin';
import { Button, List, Tag } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { lazy, useState } from 'react';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';
import { confirmAction } from '../../../shared/confirm.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import { useDisableUser, useLinesQuery, useUpdateUser, useUsersQuery } from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import type { Editing } from '../components/user-editor.tsx';
import styles from '../components/admin.module.css';

const RowActions = lazy(() => import('../components/row-actions.tsx'));
const UserEditor = lazy(() => import('../components/user-editor.tsx'));

const UsersPage = () => {
  const users = useUsersQuery();
  const lineNames = new Map((useLinesQuery().data ?? []).map((l) => [l.id, l.name]));
  const [editing, setEditing] = useState<Editing>(null);
  const [acting, setActing] = useState<AdminUser | null>(null);
  const update = useUpdateUser();
  const disable = useDisableUser();
  const close = () => setEditing(null);
  const saved = () => {
    toastSuccess('保存成功');
    close();
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

      <OnFirstOpen open={acting !== null}>
        <RowActions
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
      </OnFirstOpen>
      <OnFirstOpen open={editing !== null}>
        <UserEditor editing={editing} onClose={close} />
      </OnFirstOpen>
    </AdminPage>
  );
};

export default UsersPage;
