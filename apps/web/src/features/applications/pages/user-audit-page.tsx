import { applicationMessages } from '@linewatch/contracts/applications-messages';
import { Button, NavBar, Steps } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { paths } from '../../../shared/paths.ts';
import { applicationToken, useProgressQuery } from '../api.ts';
import styles from './applications.module.css';

/** /userAudit: the applicant's own application, read with the token this browser keeps. */
const UserAuditPage = () => {
  const navigate = useNavigate();
  const goBack = () => void navigate(paths.login);
  const token = applicationToken.get();
  const progress = useProgressQuery(token);
  const data = progress.data;

  const header = <NavBar onBack={goBack}>审核进度</NavBar>;
  if (!token || progress.isError) {
    return (
      <div className={styles.page}>
        {header}
        <BlankState
          icon={<FileOutline />}
          title={applicationMessages.notFound}
          description="在本机提交的申请会显示在这里"
          testId="audit-none"
        >
          <Button color="primary" onClick={() => void navigate(paths.userApply)}>
            去申请
          </Button>
        </BlankState>
      </div>
    );
  }
  if (!data) return <div className={styles.page}>{header}</div>;

  const decided = data.status !== 'pending';
  const current = data.status === 'pending' ? 1 : data.status === 'approved' ? 3 : 2;
  return (
    <div className={styles.page} data-testid="audit-page" data-status={data.status}>
      {header}
      <Steps direction="vertical" current={current} className={styles.steps}>
        <Steps.Step
          title="提交申请"
          status="finish"
          description={`${data.name}（工号 ${data.psnCode}，${data.mobile}）于 ${formatDateTime(data.createdAt)} 提交`}
        />
        <Steps.Step
          title="审核中"
          status={decided ? 'finish' : 'process'}
          description={decided ? '管理员已处理' : '管理员审核中，请耐心等待'}
        />
        <Steps.Step
          title={data.status === 'rejected' ? '已驳回' : '审核通过'}
          status={
            data.status === 'rejected' ? 'error' : data.status === 'approved' ? 'finish' : 'wait'
          }
          description={
            data.status === 'rejected'
              ? `驳回原因：${data.reason}`
              : data.decidedAt
                ? formatDateTime(data.decidedAt)
                : undefined
          }
        />
        <Steps.Step
          title="查看账号"
          status={data.status === 'approved' ? 'finish' : 'wait'}
          description={
            data.status === 'approved' ? (
              <div className={styles.account} data-testid="audit-account">
                账号：{data.psnCode}
                <br />
                初始密码已通过短信发送至 {data.mobile}
                <Button
                  block
                  color="primary"
                  size="small"
                  onClick={() => void navigate(paths.login)}
                >
                  去登录
                </Button>
              </div>
            ) : undefined
          }
        />
      </Steps>
    </div>
  );
};

export default UserAuditPage;
