import type { BindForm } from '@linewatch/contracts/gateways';
import { IP_EXAMPLES } from '@linewatch/contracts/gateways';
import { GATEWAY_SERIAL_LENGTH } from '@linewatch/contracts/limits';
import { Button, NavBar, Selector } from 'antd-mobile';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { usePlcModels } from '../api.ts';
import { TextField } from '../components/text-field.tsx';
import styles from '../components/maintenance-form.module.css';
import { useMaintenance } from '../use-maintenance.ts';

// zod and the schema come after the first paint: the form validates on submit.
const resolver: Resolver<BindForm> = async (values, context, options) => {
  const [{ zodResolver }, { bindForm }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('@linewatch/contracts/gateways'),
  ]);
  return zodResolver(bindForm)(values, context, options);
};

const EMPTY: BindForm = { snCode: '', iotId: '', plcIp: '', iotIp1: '', iotIp2: '', plcModel: '' };

/** /bindDevice: bind a machine to the gateway beside it (spec sections 3, 4, 5). */
const BindDevicePage = () => {
  const navigate = useNavigate();
  const models = usePlcModels();
  const {
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<BindForm>({ resolver, defaultValues: EMPTY });
  const maintenance = useMaintenance(() => reset(EMPTY));

  const submit = (form: BindForm) =>
    maintenance.send(form.iotId.trim(), {
      MsgType: 'bind',
      snCode: form.snCode.trim(),
      plcIp: form.plcIp.trim(),
      iotId: form.iotId.trim(),
      iotIp: `${form.iotIp1.trim()},${form.iotIp2.trim()}`,
      plcModel: form.plcModel,
    });

  return (
    <div className={styles.page}>
      <NavBar onBack={() => void navigate(-1)} style={{ background: '#fff' }}>
        绑定机台
      </NavBar>
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) => void handleSubmit(submit)(event)}
      >
        <TextField
          control={control}
          name="snCode"
          label="机台SN码"
          placeholder="请输入机台SN码"
          error={errors.snCode?.message}
          testId="bind-sn"
        />
        <TextField
          control={control}
          name="iotId"
          label="网关序列号"
          placeholder="请输入网关序列号"
          maxLength={GATEWAY_SERIAL_LENGTH}
          error={errors.iotId?.message}
          testId="bind-serial"
        />
        <TextField
          control={control}
          name="plcIp"
          label="机台IP"
          placeholder={`如：${IP_EXAMPLES.plcIp}`}
          error={errors.plcIp?.message}
          testId="bind-plc-ip"
        />
        <TextField
          control={control}
          name="iotIp1"
          label="网关IP1"
          placeholder={`如：${IP_EXAMPLES.iotIp1}`}
          error={errors.iotIp1?.message}
          testId="bind-iot-ip1"
        />
        <TextField
          control={control}
          name="iotIp2"
          label="网关IP2"
          placeholder={`如：${IP_EXAMPLES.iotIp2}`}
          error={errors.iotIp2?.message}
          testId="bind-iot-ip2"
        />
        <div className={styles.models}>
          <span className={styles.label}>PLC型号</span>
          <Controller
            name="plcModel"
            control={control}
            render={({ field }) => (
              <Selector
                data-testid="bind-plc-model"
                columns={2}
                options={models.data ?? []}
                value={field.value ? [field.value] : []}
                onChange={(values) => field.onChange(values[0] ?? '')}
              />
            )}
          />
        </div>
        <div className={styles.error} data-testid="bind-plc-model-error" role="alert">
          {errors.plcModel?.message}
        </div>
        <Button
          className={styles.submit}
          data-testid="bind-submit"
          block
          color="primary"
          size="large"
          type="submit"
          loading={maintenance.pending}
        >
          绑定
        </Button>
      </form>
    </div>
  );
};

export default BindDevicePage;
