import type { AdminMachine, MachineBody } from '@linewatch/contracts/admin';
import { Button, Popup, Selector } from 'antd-mobile';
import { useLayoutEffect } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { FormInput, ListForm, ListFormItem } from '../../../shared/components/list-form.tsx';
import { confirmAction } from '../../../shared/confirm.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import { useContractForm } from '../../../shared/use-contract-form.ts';
import { useDeleteMachine, useLinesQuery, useSaveMachine } from '../api.ts';
import styles from './admin.module.css';

/** Text fields of the machine form, then the targets of docs/design.md section 5 (numbers). */
const TEXT_FIELDS = [
  ['deviceName', '设备名称'],
  ['nickSnCode', 'SN昵称'],
  ['nickDeviceName', '设备昵称'],
  ['machineName', '机型'],
  ['projectName', '项目'],
  ['country', '国家'],
  ['province', '省份'],
  ['city', '城市'],
  ['plcModel', 'PLC型号'],
] as const;
const NUMBER_FIELDS = [
  ['ppmTarget', 'PPM目标'],
  ['yieldTarget', '良率目标(%)'],
  ['superiorityRateTarget', '优率目标(%)'],
  ['useRateTarget', '稼动率目标(%)'],
  ['produceTargetNumber', '产量目标'],
  ['ngTargetNumber', 'NG目标'],
  ['capacityTarget', '产能目标'],
  ['maxPpm', '最大PPM'],
] as const;

type FormValues = Record<string, string | number[] | undefined>;

const toForm = (m: AdminMachine | null): FormValues =>
  m
    ? {
        ...Object.fromEntries(
          [...TEXT_FIELDS, ...NUMBER_FIELDS].map(([key]) => [key, String(m[key] ?? '')]),
        ),
        snCode: m.snCode,
        lineId: [m.lineId],
        groupId: m.groupId ? [m.groupId] : [],
      }
    : {
        // every field given, so an untouched one is refused with its Chinese message
        ...Object.fromEntries(TEXT_FIELDS.map(([key]) => [key, ''])),
        snCode: '',
        country: '中国',
        lineId: [],
        groupId: [],
      };

const fromForm = (v: FormValues): Record<string, unknown> => {
  const body: Record<string, unknown> = { ...v };
  for (const [key] of NUMBER_FIELDS) {
    const raw = typeof v[key] === 'string' ? v[key].trim() : '';
    if (raw === '') delete body[key];
  }
  body.lineId = (v.lineId as number[] | undefined)?.[0] ?? '';
  body.groupId = (v.groupId as number[] | undefined)?.[0] ?? null;
  return body;
};

/** A choice of one (the machine's line, its product group) among a line of options. */
const OneOf = ({
  value,
  onChange,
  options,
}: {
  value: FormValues[string];
  onChange: (value: number[]) => void;
  options: { id: number; name: string }[];
}) => (
  <Selector
    columns={3}
    options={options.map((o) => ({ label: o.name, value: o.id }))}
    value={value as number[]}
    onChange={onChange}
  />
);

/** The machine form (a new machine, or one tapped in the list, which can be deleted from here). */
const MachineEditor = ({
  editing,
  onClose,
}: {
  editing: { machine: AdminMachine | null } | null;
  onClose: () => void;
}) => {
  const lines = useLinesQuery().data ?? [];
  const save = useSaveMachine();
  const remove = useDeleteMachine();
  const {
    form: { reset },
    control,
    submit,
  } = useContractForm<FormValues, MachineBody>({
    defaultValues: toForm(editing?.machine ?? null),
    loadSchema: async () => (await import('@linewatch/contracts/admin')).machineBody,
    toBody: fromForm,
    onValid: (body) =>
      save.mutate(
        { body, create: !editing?.machine },
        {
          onSuccess: () => {
            toastSuccess('保存成功');
            onClose();
          },
        },
      ),
  });
  // Each opening holds exactly its machine (or a new one's defaults), nothing of the last one;
  // before the paint, so the last one's values never show.
  useLayoutEffect(() => {
    if (editing) reset(toForm(editing.machine));
  }, [editing, reset]);
  const selectedLine = useWatch({ control, name: 'lineId' }) as number[] | undefined;
  const groups = lines.find((l) => l.id === selectedLine?.[0])?.groups ?? [];

  const onDelete = async (machine: AdminMachine) => {
    if (await confirmAction(`删除机台 ${machine.snCode} 及其全部历史数据？`))
      remove.mutate(machine.snCode, {
        onSuccess: () => {
          toastSuccess('已删除');
          onClose();
        },
      });
  };

  return (
    <Popup visible={editing !== null} onMaskClick={onClose} bodyClassName={styles.popup}>
      <ListForm
        header={editing?.machine ? `编辑 ${editing.machine.snCode}` : '新增机台'}
        onSubmit={submit}
        footer={
          <Button
            block
            type="submit"
            color="primary"
            loading={save.isPending}
            data-testid="machine-save"
          >
            保存
          </Button>
        }
      >
        <ListFormItem label="SN码" layout="horizontal" disabled={Boolean(editing?.machine)}>
          <FormInput
            control={control}
            name="snCode"
            placeholder="请输入机台SN码"
            data-testid="machine-sn"
          />
        </ListFormItem>
        <ListFormItem label="产线">
          <Controller
            name="lineId"
            control={control}
            render={({ field }) => (
              <OneOf value={field.value} onChange={field.onChange} options={lines} />
            )}
          />
        </ListFormItem>
        <ListFormItem label="产品组">
          <Controller
            name="groupId"
            control={control}
            render={({ field }) => (
              <OneOf value={field.value} onChange={field.onChange} options={groups} />
            )}
          />
        </ListFormItem>
        {TEXT_FIELDS.map(([key, label]) => (
          <ListFormItem key={key} label={label} layout="horizontal">
            <FormInput
              control={control}
              name={key}
              placeholder={label}
              data-testid={`machine-${key}`}
            />
          </ListFormItem>
        ))}
        {NUMBER_FIELDS.map(([key, label]) => (
          <ListFormItem key={key} label={label} layout="horizontal">
            <FormInput control={control} name={key} placeholder="0" inputMode="decimal" />
          </ListFormItem>
        ))}
      </ListForm>
      {editing?.machine ? (
        <Button
          block
          fill="none"
          color="danger"
          loading={remove.isPending}
          onClick={() => {
            if (editing.machine) void onDelete(editing.machine);
          }}
        >
          删除机台
        </Button>
      ) : null}
    </Popup>
  );
};

export default MachineEditor;
