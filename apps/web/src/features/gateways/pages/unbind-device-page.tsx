import type { UnbindForm } from '@linewatch/contracts/gateways';
import { GATEWAY_SERIAL_LENGTH } from '@linewatch/contracts/limits';
import { machineAndGatewayFields, MaintenanceForm } from '../components/maintenance-form.tsx';

const EMPTY: UnbindForm = { snCode: '', iotId: '' };

/** /unboundDevice: unbind a machine from its gateway (docs/product.md sections 3, 4, 5). */
const UnbindDevicePage = () => (
  <MaintenanceForm<UnbindForm>
    title="解绑机台"
    empty={EMPTY}
    loadSchema={() => import('@linewatch/contracts/gateways').then((c) => c.unbindForm)}
    fields={machineAndGatewayFields('unbind', `请输入${GATEWAY_SERIAL_LENGTH}位网关序列号`)}
    command={(form) => ({
      serial: form.iotId.trim(),
      message: { MsgType: 'unbind', snCode: form.snCode.trim(), iotId: form.iotId.trim() },
    })}
    submit={{ label: '解绑', color: 'danger', testId: 'unbind-submit' }}
  />
);

export default UnbindDevicePage;
