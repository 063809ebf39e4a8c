import type { AdminMachine, ImportRefusal, MachineBody } from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { Button, Form, Input, List, Popup, SearchBar, Selector } from 'antd-mobile';
import { useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client.ts';
import { Pager } from '../../../shared/components/pager.tsx';
import { confirmAction } from '../../../shared/confirm.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import {
  ADMIN_PAGE_SIZE,
  useDeleteMachine,
  useImportMachines,
  useLinesQuery,
  useMachinesQuery,
  useSaveMachine,
} from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import styles from '../components/admin.module.css';
import { adminSchemas, validate } from '../validate.ts';

/** Text fields of the machine form, then the targets of DESIGN.md section 5 (numbers). */
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

const toBase64 = async (file: File) => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

const MachinesPage = () => {
  const [keyword, setKeyword] = useState('');
  const [pageIndex, setPageIndex] = useState(1);
  const machines = useMachinesQuery(keyword, pageIndex);
  const lines = useLinesQuery().data ?? [];
  const save = useSaveMachine();
  const importing = useImportMachines();
  const remove = useDeleteMachine();
  const [editing, setEditing] = useState<{ machine: AdminMachine | null } | null>(null);
  const [form] = Form.useForm<FormValues>();
  const [report, setReport] = useState<string[] | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const close = () => setEditing(null);
  /** The form holds exactly this machine (or a new one's defaults), nothing of the last one. */
  const openEditor = (machine: AdminMachine | null) => {
    form.resetFields();
    form.setFieldsValue(toForm(machine));
    setEditing({ machine });
  };

  const onSave = async (values: FormValues) => {
    const create = !editing?.machine;
    const body = validate(
      (await adminSchemas()).machineBody,
      fromForm(values),
    ) as MachineBody | null;
    if (body)
      save.mutate(
        { body, create },
        {
          onSuccess: () => {
            toastSuccess('保存成功');
            close();
          },
        },
      );
  };

  const onDelete = async (machine: AdminMachine) => {
    if (await confirmAction(`删除机台 ${machine.snCode} 及其全部历史数据？`))
      remove.mutate(machine.snCode, {
        onSuccess: () => {
          toastSuccess('已删除');
          close();
        },
      });
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setReport(null);
    importing.mutate(
      { file: await toBase64(file) },
      {
        onSuccess: ({ created, updated }) => {
          setReport([`导入成功：新增 ${created} 台，更新 ${updated} 台`]);
        },
        onError: (error) => {
          const errors = (error instanceof ApiError ? error.data : null) as ImportRefusal | null;
          setReport([
            '导入失败，未写入任何数据：',
            ...(errors?.errors?.map((e) => e.message) ?? [error.message]),
          ]);
        },
      },
    );
    if (fileInput.current) fileInput.current.value = '';
  };

  const selectedLine = Form.useWatch('lineId', form) as number[] | undefined;
  const groups = lines.find((l) => l.id === selectedLine?.[0])?.groups ?? [];
  const page = machines.data;
  const pages = Math.max(1, Math.ceil((page?.total ?? 0) / ADMIN_PAGE_SIZE));

  return (
    <AdminPage title="机台管理" testId="admin-machines">
      <div className={styles.toolbar}>
        <SearchBar
          placeholder="SN码 / 设备名称"
          onSearch={(v) => {
            setKeyword(v.trim());
            setPageIndex(1);
          }}
          onClear={() => setKeyword('')}
        />
        <Button
          size="small"
          color="primary"
          onClick={() => openEditor(null)}
          data-testid="machine-create"
        >
          新增
        </Button>
      </div>
      <div className={styles.toolbar}>
        <Button
          size="small"
          loading={importing.isPending}
          onClick={() => fileInput.current?.click()}
          data-testid="machine-import"
        >
          导入表格
        </Button>
        <a
          href={adminApi.exportMachines.path}
          download="machines.xlsx"
          data-testid="machine-export"
        >
          <Button size="small">导出表格</Button>
        </a>
        <input
          ref={fileInput}
          type="file"
          hidden
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => void onFile(e.target.files?.[0])}
          data-testid="machine-import-file"
        />
      </div>
      {report ? (
        <div className={styles.errors} data-testid="import-report">
          {report.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </div>
      ) : null}
      <List header={page ? `共 ${page.total} 台` : undefined}>
        {(page?.data ?? []).map((m) => (
          <List.Item
            key={m.snCode}
            onClick={() => openEditor(m)}
            description={
              <span className={styles.meta}>
                {m.lineName}
                {m.groupName ? ` / ${m.groupName}` : ''} · {m.province}
                {m.city} · PPM目标 {m.ppmTarget}
              </span>
            }
            data-testid="machine-item"
          >
            {m.nickSnCode || m.snCode} <span className={styles.meta}>{m.deviceName}</span>
          </List.Item>
        ))}
      </List>
      <ListFooter
        query={machines}
        itemCount={page?.data.length ?? 0}
        searching={Boolean(keyword)}
        pager={
          <Pager
            page={pageIndex}
            totalPage={pages}
            onChange={setPageIndex}
            testId="machine-pager"
          />
        }
      />

      <Popup visible={editing !== null} onMaskClick={close} bodyClassName={styles.popup}>
        <Form
          form={form}
          layout="horizontal"
          onFinish={(v: FormValues) => void onSave(v)}
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
          <Form.Header>
            {editing?.machine ? `编辑 ${editing.machine.snCode}` : '新增机台'}
          </Form.Header>
          <Form.Item name="snCode" label="SN码" disabled={Boolean(editing?.machine)}>
            <Input placeholder="请输入机台SN码" data-testid="machine-sn" />
          </Form.Item>
          <Form.Item name="lineId" label="产线" layout="vertical">
            <Selector columns={3} options={lines.map((l) => ({ label: l.name, value: l.id }))} />
          </Form.Item>
          <Form.Item name="groupId" label="产品组" layout="vertical">
            <Selector columns={3} options={groups.map((g) => ({ label: g.name, value: g.id }))} />
          </Form.Item>
          {TEXT_FIELDS.map(([key, label]) => (
            <Form.Item key={key} name={key} label={label}>
              <Input placeholder={label} data-testid={`machine-${key}`} />
            </Form.Item>
          ))}
          {NUMBER_FIELDS.map(([key, label]) => (
            <Form.Item key={key} name={key} label={label}>
              <Input placeholder="0" inputMode="decimal" />
            </Form.Item>
          ))}
        </Form>
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
    </AdminPage>
  );
};

export default MachinesPage;
