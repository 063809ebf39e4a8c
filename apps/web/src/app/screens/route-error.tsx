import { Button } from 'antd-mobile';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { BlankState } from '../../shared/components/blank-state.tsx';
import { isOffline, useConnectivity } from '../../shared/connectivity.ts';
import { webMessages } from '../../shared/messages.ts';
import { toastFailure } from '../../shared/toast.ts';
import { ChunkOfflineError } from '../lazy-page.ts';
import { NotFound } from './not-found.tsx';

/**
 * A page that could not be loaded or crashed: offer a reload instead of a white screen. Offline
 * (a page whose code never reached this phone) it says so inside the app, and its retry reloads
 * only once the network is back: a reload offline would show the browser's own error page.
 */
export const RouteError = () => {
  const error = useRouteError();
  const offline = useConnectivity(isOffline);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const retry = () => {
    if (isOffline(useConnectivity.getState())) toastFailure(webMessages.networkError);
    else window.location.reload();
  };
  // Offline (or a chunk that could not load for it): say so, and that the page needs the network.
  const shown =
    offline || error instanceof ChunkOfflineError
      ? {
          title: webMessages.networkError,
          description: '此页面需联网后打开',
          testId: 'route-offline',
          action: webMessages.retry,
        }
      : {
          title: webMessages.chunkFailed,
          description: '请检查网络后重试',
          testId: 'route-error',
          action: '重新加载',
        };
  return (
    <BlankState
      icon={<ExclamationCircleOutline />}
      title={shown.title}
      description={shown.description}
      testId={shown.testId}
    >
      <Button color="primary" onClick={retry}>
        {shown.action}
      </Button>
    </BlankState>
  );
};
