import { Badge, Button, List, NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { StartFacaButton } from '../../../shared/components/start-faca-button.tsx';
import { listStateOf } from '../../../shared/list-state.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { useInbox, useMarkRead } from '../api.ts';
import styles from './alerts-pages.module.css';
import { useGoBack } from '../../../shared/use-go-back.ts';

/** /messages: the in-app inbox (the msgList role), newest first; opening a message reads it. */
const MessagesPage = () => {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const inbox = useInbox();
  const markRead = useMarkRead();
  const messages = inbox.data?.pages.flatMap((p) => p.data) ?? [];
  const unread = inbox.data?.pages[0]?.unread ?? 0;
  return (
    <div className={styles.page}>
      <NavBar
        onBack={goBack}
        right={
          unread > 0 ? (
            <Button
              size="mini"
              fill="none"
              onClick={() => markRead.mutate({ all: true })}
              data-testid="messages-read-all"
            >
              全部已读
            </Button>
          ) : null
        }
      >
        <span role="heading" aria-level={1}>
          消息（<span data-testid="messages-unread">{unread}</span> 未读）
        </span>
      </NavBar>
      <List data-testid="messages-list">
        {messages.map((m) => (
          <List.Item
            key={m.id}
            data-testid="message-item"
            data-read={m.read}
            prefix={m.read ? null : <Badge content={Badge.dot} />}
            description={
              <>
                <span className={styles.body}>{m.body}</span>
                {m.alarm ? (
                  <div>
                    <StartFacaButton prefill={{ ...m.alarm, count: 1 }} />
                  </div>
                ) : null}
              </>
            }
            extra={
              <span className={styles.time} data-testid="message-time">
                {formatDateTime(m.createdAt)}
              </span>
            }
            onClick={() => {
              if (!m.read) markRead.mutate({ ids: [m.id] });
              if (m.link) void navigate(m.link);
            }}
          >
            {m.title}
          </List.Item>
        ))}
      </List>
      <ListState
        state={listStateOf({
          itemCount: messages.length,
          isPending: inbox.isPending,
          isError: inbox.isError,
          isRefetchError: inbox.isRefetchError,
          isFetchingNextPage: inbox.isFetchingNextPage,
          hasNextPage: inbox.hasNextPage,
          searching: false,
        })}
        onRetry={() => void inbox.refetch()}
        onLoadMore={() => void inbox.fetchNextPage()}
      />
    </div>
  );
};

export default MessagesPage;
