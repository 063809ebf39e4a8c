import { Button, Input, List, NavBar, Switch } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { useChannels, useSaveChannels } from '../api.ts';
import styles from './alerts-pages.module.css';
import { useGoBack } from '../../../shared/use-go-back.ts';

/**
 * /set: where alerts reach this person, and their account. A channel the person cannot get (not
 * signed in through it) shows off, whatever their choice for it.
 */
const SetPage = () => {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const channels = useChannels();
  const save = useSaveChannels();
  const [form, setForm] = useState({ wechat: true, dingtalk: true, webhookUrl: '' });
  useEffect(() => {
    const c = channels.data;
    if (c) setForm({ wechat: c.wechat, dingtalk: c.dingtalk, webhookUrl: c.webhookUrl ?? '' });
  }, [channels.data]);
  const c = channels.data;
  return (
    <div className={styles.page}>
      <NavBar onBack={goBack}>设置</NavBar>
      <List header="账号">
        <List.Item extra={c?.account.psnCode}>工号</List.Item>
        <List.Item extra={c?.account.nickName || c?.account.name}>姓名</List.Item>
        <List.Item extra={c?.account.mobile ?? '—'}>手机号</List.Item>
        <List.Item extra={c?.account.wechatBound ? '已绑定' : '未绑定'}>微信</List.Item>
        <List.Item extra={c?.account.dingtalkBound ? '已绑定' : '未绑定'}>钉钉</List.Item>
      </List>
      <List header="消息通知">
        <List.Item extra="始终开启">站内消息</List.Item>
        <List.Item
          description={c && !c.wechatAvailable ? '通过微信登录后可用' : undefined}
          extra={
            <Switch
              disabled={!c?.wechatAvailable}
              checked={form.wechat && c?.wechatAvailable === true}
              onChange={(wechat) => setForm((f) => ({ ...f, wechat }))}
              aria-label="微信模板消息"
              data-testid="set-wechat"
            />
          }
        >
          微信模板消息
        </List.Item>
        <List.Item
          description={c && !c.dingtalkAvailable ? '通过钉钉登录后可用' : undefined}
          extra={
            <Switch
              disabled={!c?.dingtalkAvailable}
              checked={form.dingtalk && c?.dingtalkAvailable === true}
              onChange={(dingtalk) => setForm((f) => ({ ...f, dingtalk }))}
              aria-label="钉钉工作通知"
              data-testid="set-dingtalk"
            />
          }
        >
          钉钉工作通知
        </List.Item>
        {c?.webhookAvailable ? (
          <List.Item title="Webhook 地址">
            <Input
              placeholder="https://"
              value={form.webhookUrl}
              onChange={(webhookUrl) => setForm((f) => ({ ...f, webhookUrl }))}
              data-testid="set-webhook"
            />
          </List.Item>
        ) : null}
        <List.Item onClick={() => void navigate(paths.messages)}>我的消息</List.Item>
        <List.Item onClick={() => void navigate(paths.subscription)}>我的订阅</List.Item>
      </List>
      <div className={styles.toolbar}>
        <Button
          block
          color="primary"
          loading={save.isPending}
          onClick={() => save.mutate(form)}
          data-testid="set-save"
        >
          保存
        </Button>
      </div>
    </div>
  );
};

export default SetPage;
