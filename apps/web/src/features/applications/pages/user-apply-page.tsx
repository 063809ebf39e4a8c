import { applicationMessages, type ApplyForm } from '@linewatch/contracts/applications';
import { Button, Form, Input, NavBar } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { toastFailure, toastSuccess } from '../../../shared/toast.ts';
import { useApplyMutation, useSendCodeMutation } from '../api.ts';
import styles from './applications.module.css';

const emptyForm: ApplyForm = { name: '', psnCode: '', mobile: '', code: '' };

/** /userApply: the account application, with a verification code sent to the phone. */
const UserApplyPage = () => {
  const navigate = useNavigate();
  const goBack = () => void navigate(paths.login);
  const [form] = Form.useForm<ApplyForm>();
  const [countdown, setCountdown] = useState(0);
  const sendCode = useSendCodeMutation();
  const apply = useApplyMutation();

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = setTimeout(() => setCountdown((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown]);

  const onSendCode = async () => {
    const { mobileSchema } = await import('@linewatch/contracts/applications');
    const mobile = mobileSchema.safeParse(form.getFieldValue('mobile') ?? '');
    if (!mobile.success) {
      toastFailure(mobile.error.issues[0]?.message ?? applicationMessages.mobileInvalid);
      return;
    }
    sendCode.mutate(mobile.data, {
      onSuccess: ({ retryAfterSeconds }) => {
        toastSuccess(applicationMessages.codeSent);
        setCountdown(retryAfterSeconds);
      },
    });
  };

  const onSubmit = async (values: ApplyForm) => {
    const { applyForm } = await import('@linewatch/contracts/applications');
    const parsed = applyForm.safeParse({ ...emptyForm, ...values });
    if (!parsed.success) {
      toastFailure(parsed.error.issues[0]?.message ?? '');
      return;
    }
    apply.mutate(parsed.data, {
      onSuccess: () => {
        toastSuccess(applicationMessages.submitted);
        void navigate(paths.userAudit, { replace: true });
      },
    });
  };

  return (
    <div className={styles.page}>
      <NavBar onBack={goBack}>用户申请</NavBar>
      <div className={styles.intro}>填写信息提交申请，管理员审核通过后即可登录。</div>
      <Form
        form={form}
        initialValues={emptyForm}
        onFinish={(values: ApplyForm) => void onSubmit(values)}
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
        <Form.Item name="name" label="姓名">
          <Input
            placeholder={applicationMessages.nameRequired}
            data-testid="apply-name"
            clearable
          />
        </Form.Item>
        <Form.Item name="psnCode" label="工号">
          <Input
            placeholder={applicationMessages.psnCodeRequired}
            data-testid="apply-psn"
            clearable
          />
        </Form.Item>
        <Form.Item name="mobile" label="手机号">
          <Input placeholder="请输入手机号" type="tel" data-testid="apply-mobile" clearable />
        </Form.Item>
        <Form.Item
          name="code"
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
          <Input
            placeholder={applicationMessages.codeRequired}
            inputMode="numeric"
            maxLength={6}
            data-testid="apply-code"
          />
        </Form.Item>
      </Form>
      <div className={styles.actions}>
        <Button block fill="none" onClick={() => void navigate(paths.userAudit)}>
          查看审核进度
        </Button>
      </div>
    </div>
  );
};

export default UserApplyPage;
