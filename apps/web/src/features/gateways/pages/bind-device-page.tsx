import type { BindForm } from '@linewatch/contracts/gateways';
import { IP_EXAMPLES, MODBUS_PORT } from '@linewatch/contracts/gateway-labels';
import { Selector } from 'antd-mobile';
import { Controller } from 'react-hook-form';
import { usePlcModels } from '../api.ts';
import { machineAndGatewayFields, MaintenanceForm } from '../components/maintenance-form.tsx';
import styles from '../components/maintenance-form.module.css';

/** Port and unit id start at what most PLCs use: Modbus TCP's port and unit 1. */
const EMPTY: BindForm = {
  snCode: '',
  iotId: '',
  plcIp: '',
  plcPort: String(MODBUS_PORT),
  unitId: '1',
  iotIp1: '',
  iotIp2: '',
  plcModel: '',
};

/** /bindDevice: bind a machine to the gateway beside it (docs/product.md sections 3, 4, 5). */
const BindDevicePage = () => {
  const models = usePlcModels();
  return (
    <MaintenanceForm<BindForm>
      title="绑定机台"
      empty={EMPTY}
      loadSchema={() => import('@linewatch/contracts/gateways').then((c) => c.bindForm)}
      fields={[
        ...machineAndGatewayFields<BindForm>('bind', '请输入网关序列号'),
        {
          name: 'plcIp',
          label: '机台IP',
          placeholder: `如：${IP_EXAMPLES.plcIp}`,
          testId: 'bind-plc-ip',
        },
        {
          name: 'plcPort',
          label: '机台端口',
          placeholder: `如：${MODBUS_PORT}`,
          inputMode: 'numeric',
          maxLength: 5,
          testId: 'bind-plc-port',
        },
        {
          name: 'unitId',
          label: '站号',
          placeholder: '如：1',
          inputMode: 'numeric',
          maxLength: 3,
          testId: 'bind-unit-id',
        },
        {
          name: 'iotIp1',
          label: '网关IP1',
          placeholder: `如：${IP_EXAMPLES.iotIp1}`,
          testId: 'bind-iot-ip1',
        },
        {
          name: 'iotIp2',
          label: '网关IP2',
          placeholder: `如：${IP_EXAMPLES.iotIp2}`,
          testId: 'bind-iot-ip2',
        },
      ]}
      command={(form) => ({
        serial: form.iotId.trim(),
        message: {
          MsgType: 'bind',
          snCode: form.snCode.trim(),
          plcIp: form.plcIp.trim(),
          plcPort: Number(form.plcPort.trim()),
          unitId: Number(form.unitId.trim()),
          iotId: form.iotId.trim(),
          iotIp: `${form.iotIp1.trim()},${form.iotIp2.trim()}`,
          plcModel: form.plcModel,
        },
      })}
      submit={{ label: '绑定', color: 'primary', testId: 'bind-submit' }}
    >
      {({ control, errors, setValue, getValues }) => (
        <>
          <div className={styles.models}>
            <span className={styles.label}>PLC型号</span>
            <Controller
              name="plcModel"
              control={control}
              render={({ field }) => (
                <Selector
                  aria-label="PLC型号"
                  data-testid="bind-plc-model"
                  columns={2}
                  options={models.data ?? []}
                  value={field.value ? [field.value] : []}
                  onChange={(values) => {
                    const next = values[0] ?? '';
                    // An OPC UA or S7 model listens on its own port (4840, 102): the port follows
                    // the model unless the user typed one of their own.
                    const portOf = (model: string) =>
                      String(models.data?.find((m) => m.value === model)?.port ?? MODBUS_PORT);
                    if (getValues('plcPort').trim() === portOf(field.value))
                      setValue('plcPort', portOf(next));
                    field.onChange(next);
                  }}
                />
              )}
            />
          </div>
          <div
            className={styles.error}
            data-testid="bind-plc-model-error"
            role="alert"
            aria-label="PLC型号"
          >
            {errors.plcModel?.message}
          </div>
        </>
      )}
    </MaintenanceForm>
  );
};

export default BindDevicePage;
