import type { AdminApplication } from '@linewatch/contracts/admin';
import { Button, Popup } from 'antd-mobile';
import { FormInput, ListForm, ListFormItem } from '../../../shared/components/list-form.tsx';
import { toastSuccess } from '../../../shared/toast.ts';
import { useContractForm } from '../../../shared/use-contract-form.ts';
import { useApprove, useReject } from '../api.ts';
import styles from './admin.module.css';
import { LineIdsField } from './line-selector.tsx';

export interface Deciding {
  kind: 'approve' | 'reject';
  item: AdminApplication;
}

const ApproveForm = ({ item, onDone }: { item: AdminApplication; onDone: () => void }) => {
  const approve = useApprove();
  const { control, submit } = useContractForm({
    defaultValues: { lineIds: [] as number[] },
    loadSchema: async () => (await import('@linewatch/contracts/admin')).approveBody,
    toBody: (values) => ({ id: item.id, ...values }),
    onValid: (body) =>
      approve.mutate(body, {
        onSuccess: ({ initialPassword }) => {
          onDone();
          void import('../../../shared/imperative-ui.ts').then(({ Dialog }) =>
            Dialog.alert({
              title: '已通过',
              content: `账号 ${item.psnCode} 已创建，初始密码 ${initialPassword}（已短信发送给申请人）`,
            }),
          );
        },
      }),
  });
  return (
    <ListForm
      header={`通过 ${item.name} 的申请：授权产线`}
      onSubmit={submit}
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
      <ListFormItem>
        <LineIdsField control={control} />
      </ListFormItem>
    </ListForm>
  );
};

const RejectForm = ({ item, onDone }: { item: AdminApplication; onDone: () => void }) => {
  const reject = useReject();
  const { control, submit } = useContractForm({
    defaultValues: { reason: '' },
    loadSchema: async () => (await import('@linewatch/contracts/admin')).rejectBody,
    toBody: (values) => ({ id: item.id, ...values }),
    onValid: (body) =>
      reject.mutate(body, {
        onSuccess: () => {
          toastSuccess('已驳回');
          onDone();
        },
      }),
  });
  return (
    <ListForm
      header={`驳回 ${item.name} 的申请`}
      onSubmit={submit}
      footer={
        <Button block type="submit" color="danger" loading={reject.isPending}>
          驳回
        </Button>
      }
    >
      <ListFormItem label="原因">
        <FormInput control={control} name="reason" placeholder="请输入驳回原因" />
      </ListFormItem>
    </ListForm>
  );
};

/** Approving (the lines to grant) or rejecting (why) an application; opened by the row's buttons. */
const DecisionPopup = ({
  deciding,
  onClose,
}: {
  deciding: Deciding | null;
  onClose: () => void;
}) => (
  <Popup
    visible={deciding !== null}
    onMaskClick={onClose}
    destroyOnClose
    bodyClassName={styles.popup}
  >
    {deciding?.kind === 'approve' ? (
      <ApproveForm key={deciding.item.id} item={deciding.item} onDone={onClose} />
    ) : deciding?.kind === 'reject' ? (
      <RejectForm key={deciding.item.id} item={deciding.item} onDone={onClose} />
    ) : null}
  </Popup>
);

export default DecisionPopup;
