import type { GatewayCredential, GatewayRow } from '@linewatch/contracts/gateways';
import { Button, Input, List, NavBar, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { formatClock } from '../../../shared/format.ts';
import { useCredentialMutation, useGatewayRegistry } from '../api.ts';
import styles from '../components/maintenance-form.module.css';

/** Where the machine's PLC is read: IP:port and unit id. */
const plcOf = ({ plcIp, plcPort, unitId }: GatewayRow['machines'][number]) =>
  plcIp === null ? '—' : `${plcIp}${plcPort === null ? '' : `:${plcPort}`} 站号${unitId ?? '—'}`;

/**
 * The secret is shown once: it is stored only as a hash. The dialog (and react-spring, which
 * animates it) loads with the first credential, not with the page.
 */
const showCredential = async (credential: GatewayCredential) => {
  const { Dialog } = await import('../../../shared/imperative-ui.ts');
  await Dialog.alert({
    title: `网关 ${credential.serial} 的密钥`,
    content: (
      <div>
        <p data-testid="gateway-secret" style={{ wordBreak: 'break-all', fontFamily: 'monospace' }}>
          {credential.secret}
        </p>
        <p>请立即复制到网关配置中，关闭后无法再次查看。</p>
      </div>
    ),
    confirmText: '我已保存',
  });
};

/** /admin/gateways: the gateway registry — state, agent version, machines; register and rotate. */
const AdminGatewaysPage = () => {
  const navigate = useNavigate();
  const registry = useGatewayRegistry();
  const credential = useCredentialMutation();
  const [serial, setSerial] = useState('');

  const act = (action: 'register' | 'rotate', target: string) =>
    credential.mutate(
      { action, serial: target },
      {
        onSuccess: (created) => {
          if (action === 'register') setSerial('');
          void showCredential(created);
        },
      },
    );

  const gateways = registry.data ?? [];
  return (
    <div className={styles.page}>
      <NavBar onBack={() => void navigate(-1)} style={{ background: '#fff' }}>
        网关管理
      </NavBar>
      <div className={styles.form}>
        <label className={styles.field}>
          <span className={styles.label}>网关序列号</span>
          <Input
            className={styles.input}
            data-testid="gateway-register-serial"
            placeholder="12位网关序列号"
            maxLength={12}
            value={serial}
            onChange={setSerial}
          />
        </label>
        <Button
          className={styles.submit}
          data-testid="gateway-register"
          color="primary"
          loading={credential.isPending}
          onClick={() => act('register', serial.trim())}
        >
          登记网关
        </Button>
      </div>
      <List header="已登记网关">
        {gateways.map((g) => (
          <List.Item
            key={g.serial}
            data-testid="gateway-row"
            description={
              <>
                <div>最后通信：{g.lastSeenAt ? formatClock(g.lastSeenAt) : '—'}</div>
                <div>
                  版本：
                  {g.agentVersion ?? '—'}
                </div>
                <div>
                  机台：
                  {g.machines.length
                    ? g.machines.map((m) => `${m.snCode}(${plcOf(m)})`).join('、')
                    : '无'}
                </div>
              </>
            }
            extra={
              <Button size="mini" onClick={() => act('rotate', g.serial)}>
                更换密钥
              </Button>
            }
          >
            {g.serial}{' '}
            <Tag color={g.online ? 'success' : 'default'}>{g.online ? '在线' : '离线'}</Tag>
          </List.Item>
        ))}
      </List>
      {registry.isPending ? (
        <ListState state="loading" />
      ) : registry.isError ? (
        <ListState state="error" onRetry={() => void registry.refetch()} />
      ) : gateways.length === 0 ? (
        <ListState state="empty" />
      ) : null}
    </div>
  );
};

export default AdminGatewaysPage;
