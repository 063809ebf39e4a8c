import type { AdminMachine, ImportRefusal } from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { PAGE_SIZE, pageCount } from '@linewatch/contracts/rules/paging';
import { Button, List, SearchBar } from 'antd-mobile';
import { lazy, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client.ts';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';
import { Pager } from '../../../shared/components/pager.tsx';
import { useImportMachines, useMachinesQuery } from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import styles from '../components/admin.module.css';

const MachineEditor = lazy(() => import('../components/machine-editor.tsx'));

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
  const importing = useImportMachines();
  const [editing, setEditing] = useState<{ machine: AdminMachine | null } | null>(null);
  const [report, setReport] = useState<string[] | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const close = () => setEditing(null);
  const openEditor = (machine: AdminMachine | null) => setEditing({ machine });

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

  const page = machines.data;
  const pages = pageCount(page?.total ?? 0, PAGE_SIZE.admin);

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
          aria-label="导入表格"
          data-testid="machine-import-file"
        />
      </div>
      {report ? (
        <div
          className={styles.errors}
          role="status"
          aria-label="导入结果"
          data-testid="import-report"
        >
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

      <OnFirstOpen open={editing !== null}>
        <MachineEditor editing={editing} onClose={close} />
      </OnFirstOpen>
    </AdminPage>
  );
};

export default MachinesPage;
