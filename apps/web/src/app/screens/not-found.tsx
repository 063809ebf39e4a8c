import { Button } from 'antd-mobile';
import { QuestionCircleOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { BlankState } from '../../shared/components/blank-state.tsx';
import { webMessages } from '../../shared/messages.ts';
import { paths } from '../../shared/paths.ts';

export const NotFound = () => {
  const navigate = useNavigate();
  return (
    <BlankState
      icon={<QuestionCircleOutline />}
      title={webMessages.notFound}
      description="您访问的地址不存在或已被移除"
      testId="not-found"
    >
      <Button
        color="primary"
        onClick={() => void navigate(paths.home, { replace: true })}
        data-testid="not-found-home"
      >
        返回首页
      </Button>
    </BlankState>
  );
};
