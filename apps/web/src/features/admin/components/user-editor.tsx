import type { AdminUser, CreateUserBody } from '@linewatch/contracts/admin';
import { Button, Popup, Switch } from 'antd-mobile';
import { Controller } from 'react-hook-form';
import { FormInput, ListForm, ListFormItem } from '../../../shared/components/list-form.tsx';
import { toastSuccess } from '../../../shared/toast.ts';
import { useContractForm } from '../../../shared/use-contract-form.ts';
import { useCreateUser, useResetPassword, useUpdateUser } from '../api.ts';
import styles from './admin.module.css';
import { LineIdsField } from './line-selector.tsx';

export type Editing = { kind: 'create' } | { kind: 'lines' | 'password'; user: AdminUser } | null;

const saved = (onDone: () => void) => () => {
  toastSuccess('保存成功');
  onDone();
};

interface NewUser {
  psnCode: string;
  name: string;
  mobile: string;
  password: string;
  isAdmin: boolean;
  lineIds: number[];
}

const CreateForm = ({ onDone }: { onDone: () => void }) => {
  const create = useCreateUser();
  const { control, submit } = useContractForm<NewUser, CreateUserBody>({
    defaultValues: { psnCode: '', name: '', mobile: '', password: '', isAdmin: false, lineIds: [] },
    loadSchema: async () => (await import('@linewatch/contracts/admin')).createUserBody,
    onValid: (body) => create.mutate(body, { onSuccess: saved(onDone) }),
  });
  return (
    <ListForm
      header="新建用户"
      onSubmit={submit}
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
      <ListFormItem label="工号">
        <FormInput
          control={control}
          name="psnCode"
          placeholder="请输入工号"
          data-testid="user-psn"
        />
      </ListFormItem>
      <ListFormItem label="姓名">
        <FormInput control={control} name="name" placeholder="请输入姓名" data-testid="user-name" />
      </ListFormItem>
      <ListFormItem label="手机号">
        <FormInput control={control} name="mobile" placeholder="选填" type="tel" />
      </ListFormItem>
      <ListFormItem label="初始密码">
        <FormInput
          control={control}
          name="password"
          placeholder="至少8位"
          type="password"
          data-testid="user-password"
        />
      </ListFormItem>
      <ListFormItem label="管理员">
        <Controller
          name="isAdmin"
          control={control}
          render={({ field }) => <Switch checked={field.value} onChange={field.onChange} />}
        />
      </ListFormItem>
      <ListFormItem label="产线">
        <LineIdsField control={control} />
      </ListFormItem>
    </ListForm>
  );
};

const LinesForm = ({ user, onDone }: { user: AdminUser; onDone: () => void }) => {
  const update = useUpdateUser();
  const { control, submit } = useContractForm({
    defaultValues: { lineIds: user.lineIds },
    loadSchema: async () => (await import('@linewatch/contracts/admin')).updateUserBody,
    toBody: (values) => ({ id: user.id, ...values }),
    onValid: (body) => update.mutate(body, { onSuccess: saved(onDone) }),
  });
  return (
    <ListForm
      header={`${user.name} 的产线`}
      onSubmit={submit}
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
      <ListFormItem>
        <LineIdsField control={control} />
      </ListFormItem>
    </ListForm>
  );
};

const PasswordForm = ({ user, onDone }: { user: AdminUser; onDone: () => void }) => {
  const reset = useResetPassword();
  const { control, submit } = useContractForm({
    defaultValues: { password: '' },
    loadSchema: async () => (await import('@linewatch/contracts/admin')).resetPasswordBody,
    toBody: (values) => ({ id: user.id, ...values }),
    onValid: (body) => reset.mutate(body, { onSuccess: saved(onDone) }),
  });
  return (
    <ListForm
      header={`重置 ${user.name} 的密码`}
      onSubmit={submit}
      footer={
        <>
          <p className={styles.meta} data-testid="reset-password-effect">
            重置后，该用户在所有设备上的登录立即失效，绑定的微信、钉钉一并解绑，下次登录时用新密码重新绑定。
          </p>
          <Button block type="submit" color="primary" loading={reset.isPending}>
            保存
          </Button>
        </>
      }
    >
      <ListFormItem label="新密码">
        <FormInput control={control} name="password" placeholder="至少8位" type="password" />
      </ListFormItem>
    </ListForm>
  );
};

/** A new user, a user's lines or a new password, in a popup opened from the list. */
const UserEditor = ({ editing, onClose }: { editing: Editing; onClose: () => void }) => (
  <Popup
    visible={editing !== null}
    onMaskClick={onClose}
    destroyOnClose
    bodyClassName={styles.popup}
  >
    {editing?.kind === 'create' ? (
      <CreateForm onDone={onClose} />
    ) : editing?.kind === 'lines' ? (
      <LinesForm key={editing.user.id} user={editing.user} onDone={onClose} />
    ) : editing?.kind === 'password' ? (
      <PasswordForm key={editing.user.id} user={editing.user} onDone={onClose} />
    ) : null}
  </Popup>
);

export default UserEditor;
