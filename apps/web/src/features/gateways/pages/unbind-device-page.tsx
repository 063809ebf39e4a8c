import type { UnbindForm } from '@linewatch/contracts/gateways';
import { GATEWAY_SERIAL_LENGTH } from '@linewatch/contracts/limits';
import { Button, NavBar } from 'antd-mobile';
import { useForm, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { TextField } from '../components/text-field.tsx';
import styles from '../components/maintenance-form.module.css';
import { useMaintenance } from '../use-maintenance.ts';

const resolver: Resolver<UnbindForm> = async (values, context, options) => {
  const [{ zodResolver }, { unbindForm }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('@linewatch/contracts/gateways'),
  ]);
  return zodResolver(unbindForm)(values, context, options);
};

const EMPTY: UnbindForm = { snCode: '', iotId: '' };

/** /unboundDevice: unbind a machine from its gateway (spec sections 3, 4, 5). */
const UnbindDevicePage = () => {
  const navigate = useNavigate();
  const {
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<UnbindForm>({ resolver, defaultValues: EMPTY });
  const maintenance = useMaintenance(() => reset(EMPTY));

  return (
    <div className={styles.page}>
      <NavBar onBack={() => void navigate(-1)} style={{ background: '#fff' }}>
        解绑机台
      </NavBar>
      <form
        className={styles.form}
        noValidate
        onSubmit={(event) =>
          void handleSubmit((form) =>
            maintenance.send(form.iotId.trim(), {
              MsgType: 'unbind',
              snCode: form.snCode.trim(),
              iotId: form.iotId.trim(),
            }),
          )(event)
        }
      >
        <TextField
          control={control}
          name="snCode"
          label="机台SN码"
          placeholder="请输入机台SN码"
          error={errors.snCode?.message}
          testId="unbind-sn"
        />
        <TextField
          control={control}
          name="iotId"
          label="网关序列号"
          placeholder={`请输入${GATEWAY_SERIAL_LENGTH}位网关序列号`}
          maxLength={GATEWAY_SERIAL_LENGTH}
          error={errors.iotId?.message}
          testId="unbind-serial"
        />
        <Button
          className={styles.submit}
          data-testid="unbind-submit"
          block
          color="danger"
          size="large"
          type="submit"
          loading={maintenance.pending}
        >
          解绑
        </Button>
      </form>
    </div>
  );
};

export default UnbindDevicePage;
