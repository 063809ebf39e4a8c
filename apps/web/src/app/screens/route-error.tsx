import { Button } from 'antd-mobile';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { BlankState } from '../../shared/components/blank-state.tsx';
import { webMessages } from '../../shared/messages.ts';
import { NotFound } from './not-found.tsx';

/** A page that could not be loaded or crashed: offer a reload instead of a white screen. */
export const RouteError = () => {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <BlankState
      icon={<ExclamationCircleOutline />}
      title={webMessages.chunkFailed}
      description="请检查网络后重试"
      testId="route-error"
    >
      <Button color="primary" onClick={() => window.location.reload()}>
        重新加载
      </Button>
    </BlankState>
  );
};
