import { Button, NavBar } from 'antd-mobile';
import { ClockCircleOutline } from 'antd-mobile-icons';
import { useMatches } from 'react-router';
import { BlankState } from '../../shared/components/blank-state.tsx';
import { webMessages } from '../../shared/messages.ts';
import { handleOf } from '../route-handle.ts';
import { useGoBack } from '../../shared/use-go-back.ts';

interface NotBuiltProps {
  /** Standalone pages get a top bar with back; pages inside a layout already have navigation. */
  standalone?: boolean;
}

/** What a route shows until its screen is built. */
export const NotBuilt = ({ standalone = true }: NotBuiltProps) => {
  const matches = useMatches();
  const goBack = useGoBack();
  const title = matches
    .map(handleOf)
    .reverse()
    .find((handle) => handle.title)?.title;
  return (
    <div>
      {standalone ? (
        <NavBar onBack={goBack} style={{ background: '#fff' }}>
          {title}
        </NavBar>
      ) : null}
      <BlankState
        icon={<ClockCircleOutline />}
        title={webMessages.notBuilt}
        description={title ? `「${title}」功能建设中，敬请期待` : '功能建设中，敬请期待'}
        testId="not-built"
      >
        {standalone ? (
          <Button color="primary" fill="outline" onClick={goBack} data-testid="not-built-back">
            返回
          </Button>
        ) : null}
      </BlankState>
    </div>
  );
};
