import type { ApplyForm } from '@linewatch/contracts/applications';
import { applicationMessages } from '@linewatch/contracts/applications-messages';
import { Button, NavBar } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { FormInput, ListForm, ListFormItem } from '../../../shared/components/list-form.tsx';
import { paths } from '../../../shared/paths.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import { checkWithContract, useContractForm } from '../../../shared/use-contract-form.ts';
import { useApplyMutation, useSendCodeMutation } from '../api.ts';
import styles from './applications.module.css';

const emptyForm: ApplyForm = { name: '', psnCode: '', mobile: '', code: '' };

// The contract's schemas, and zod, come with the first send or submit, not with the page.
const mobileSchema = async () => (await import('@linewatch/contracts/applications')).mobileSchema;
const applyForm = async () => (await import('@linewatch/contracts/applications')).applyForm;

/** /userApply: the account application, with a verification code sent to the phone. */
const UserApplyPage = () => {
  const navigate = useNavigate();
  const goBack = () => void navigate(paths.login);
  const [countdown, setCountdown] = useState(0);
  const sendCode = useSendCodeMutation();
  const apply = useApplyMutation();
  const {
    form: { getValues },
    control,
    submit,
  } = useContractForm<ApplyForm, ApplyForm>({
    defaultValues: emptyForm,
    loadSchema: applyForm,
    onValid: (body) =>
      apply.mutate(body, {
        onSuccess: () => {
          toastSuccess(applicationMessages.submitted);
          void navigate(paths.userAudit, { replace: true });
        },
      }),
  });

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = setTimeout(() => setCountdown((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown]);

  const onSendCode = async () => {
    const mobile = await checkWithContract(mobileSchema, getValues('mobile'));
    if (mobile === null) return;
    sendCode.mutate(mobile, {
      onSuccess: ({ retryAfterSeconds }) => {
        toastSuccess(applicationMessages.codeSent);
        setCountdown(retryAfterSeconds);
      },
    });
  };

  return (
    <div className={styles.page}>
      <NavBar onBack={goBack}>用户申请</NavBar>
      <div className={styles.intro}>填写信息提交申请，管理员审核通过后即可登录。</div>
      <ListForm
        onSubmit={submit}
        footer={
          <Button
            block
            type="submit"
            color="primary"
            size="large"
            loading={apply.isPending}
            data-testid="apply-submit"
          >
            提交申请
          </Button>
        }
      >
        <ListFormItem label="姓名">
          <FormInput
            control={control}
            name="name"
            placeholder={applicationMessages.nameRequired}
            data-testid="apply-name"
            clearable
          />
        </ListFormItem>
        <ListFormItem label="工号">
          <FormInput
            control={control}
            name="psnCode"
            placeholder={applicationMessages.psnCodeRequired}
            data-testid="apply-psn"
            clearable
          />
        </ListFormItem>
        <ListFormItem label="手机号">
          <FormInput
            control={control}
            name="mobile"
            placeholder="请输入手机号"
            type="tel"
            data-testid="apply-mobile"
            clearable
          />
        </ListFormItem>
        <ListFormItem
          label="验证码"
          extra={
            <Button
              size="small"
              color="primary"
              fill="outline"
              disabled={countdown > 0 || sendCode.isPending}
              onClick={() => void onSendCode()}
              data-testid="apply-send-code"
            >
              {countdown > 0 ? `${countdown}秒后重发` : '发送验证码'}
            </Button>
          }
        >
          <FormInput
            control={control}
            name="code"
            placeholder={applicationMessages.codeRequired}
            inputMode="numeric"
            maxLength={6}
            data-testid="apply-code"
          />
        </ListFormItem>
      </ListForm>
      <div className={styles.actions}>
        <Button block fill="none" onClick={() => void navigate(paths.userAudit)}>
          查看审核进度
        </Button>
      </div>
    </div>
  );
};

export default UserApplyPage;
