import { messages } from '@linewatch/contracts/envelope';
import { CloseCircleOutline, UnorderedListOutline } from 'antd-mobile-icons';
import { ApiError } from '../../../shared/api-client.ts';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { ListState } from '../../../shared/components/list-state.tsx';
import { webMessages } from '../../../shared/messages.ts';

/** A history or log page opened without ?snCode. */
export const NoDevice = () => (
  <BlankState
    icon={<UnorderedListOutline />}
    title={webMessages.noDevice}
    description="请从设备列表选择设备"
    testId="no-device"
  />
);

/**
 * What a query shows until it has data: 无权查看 for a machine outside the user's lines (0403),
 * 请从设备列表重新选择设备 for an SN no machine has (0404), else loading or the retry row.
 */
export const Waiting = ({
  query,
  testId,
}: {
  query: { error: unknown; isError: boolean; refetch: () => unknown };
  testId: string;
}) => {
  const { error } = query;
  if (error instanceof ApiError && error.code === '0403')
    return (
      <BlankState
        icon={<CloseCircleOutline />}
        title={messages.forbidden}
        testId={`${testId}-denied`}
      />
    );
  if (error instanceof ApiError && error.code === '0404')
    return (
      <BlankState
        icon={<UnorderedListOutline />}
        title={webMessages.reselectDevice}
        testId={`${testId}-unknown`}
      />
    );
  return (
    <ListState state={query.isError ? 'error' : 'loading'} onRetry={() => void query.refetch()} />
  );
};
