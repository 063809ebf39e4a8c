import type { AdminLine } from '@linewatch/contracts/admin';
import { Button, Input, List } from 'antd-mobile';
import { lazy, useState } from 'react';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';
import { confirmAction } from '../../../shared/confirm.ts';
import { toastSuccess } from '../../../shared/toast.ts';
import { useDeleteGroup, useDeleteLine, useLinesQuery, useSaveGroup, useSaveLine } from '../api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import styles from '../components/admin.module.css';

const RowActions = lazy(() => import('../components/row-actions.tsx'));

// The contract's schemas with zod, and the check with react-hook-form, come with the first save.
const contractCheck = () => import('../../../shared/use-contract-form.ts');
const checkLine = async (input: unknown) =>
  (await contractCheck()).checkWithContract(
    async () => (await import('@linewatch/contracts/admin')).saveLineBody,
    input,
  );
const checkGroup = async (input: unknown) =>
  (await contractCheck()).checkWithContract(
    async () => (await import('@linewatch/contracts/admin')).saveGroupBody,
    input,
  );

/** Asks for a name (a new line or group, or a rename). */
const askName = async (title: string, initial = ''): Promise<string | null> => {
  const { Dialog } = await import('../../../shared/imperative-ui.ts');
  let value = initial;
  const ok = await Dialog.confirm({
    title,
    content: (
      <Input
        defaultValue={initial}
        placeholder="请输入名称"
        onChange={(v) => (value = v)}
        data-testid="name-input"
      />
    ),
  });
  return ok ? value : null;
};

type Acting = { line: AdminLine; group?: AdminLine['groups'][number] } | null;

const LinesPage = () => {
  const lines = useLinesQuery();
  const saveLine = useSaveLine();
  const deleteLine = useDeleteLine();
  const saveGroup = useSaveGroup();
  const deleteGroup = useDeleteGroup();
  const [name, setName] = useState('');
  // The line or group whose 重命名 / 删除 sheet is open (a tap on its row).
  const [acting, setActing] = useState<Acting>(null);
  const done = () => toastSuccess('保存成功');

  const addLine = async () => {
    const body = await checkLine({ name });
    if (body) saveLine.mutate(body, { onSuccess: () => (setName(''), done()) });
  };
  const rename = async (line: AdminLine) => {
    const next = await askName('产线名称', line.name);
    if (next === null) return;
    const body = await checkLine({
      id: line.id,
      name: next,
      sort: line.sort,
    });
    if (body) saveLine.mutate(body, { onSuccess: done });
  };
  const renameGroup = async (line: AdminLine, group: AdminLine['groups'][number]) => {
    const next = await askName('产品组名称', group.name);
    if (next === null) return;
    const body = await checkGroup({
      id: group.id,
      lineId: line.id,
      name: next,
    });
    if (body) saveGroup.mutate(body, { onSuccess: done });
  };
  /** Deleting asks first; the server refuses a line or group that still has machines. */
  const remove = async (what: string, run: () => void) => {
    if (await confirmAction(`删除${what}？`)) run();
  };
  const addGroup = async (line: AdminLine) => {
    const next = await askName(`为 ${line.name} 新增产品组`);
    if (next === null) return;
    const body = await checkGroup({ lineId: line.id, name: next });
    if (body) saveGroup.mutate(body, { onSuccess: done });
  };
  const actionsOf = ({ line, group }: NonNullable<Acting>) =>
    group
      ? [
          { key: 'rename', text: '重命名', onClick: () => void renameGroup(line, group) },
          {
            key: 'delete',
            text: '删除',
            danger: true,
            onClick: () =>
              void remove(`产品组 ${group.name}`, () =>
                deleteGroup.mutate(group.id, { onSuccess: done }),
              ),
          },
        ]
      : [
          { key: 'rename', text: '重命名', onClick: () => void rename(line) },
          {
            key: 'delete',
            text: '删除',
            danger: true,
            onClick: () =>
              void remove(`产线 ${line.name}`, () =>
                deleteLine.mutate(line.id, { onSuccess: done }),
              ),
          },
        ];

  const list = lines.data ?? [];
  return (
    <AdminPage title="产线与产品组" testId="admin-lines">
      <div className={styles.toolbar}>
        <Input
          placeholder="新产线名称"
          value={name}
          onChange={setName}
          data-testid="line-name"
          clearable
        />
        <Button size="small" color="primary" onClick={() => void addLine()} data-testid="line-add">
          新增产线
        </Button>
      </div>
      {list.map((line) => (
        <List
          key={line.id}
          header={`${line.name}（机台 ${line.machineCount}）`}
          data-testid={`line-${line.name}`}
        >
          <List.Item onClick={() => setActing({ line })} extra="重命名">
            {line.name}
          </List.Item>
          {line.groups.map((g) => (
            <List.Item
              key={g.id}
              prefix="·"
              extra={`机台 ${g.machineCount}`}
              onClick={() => setActing({ line, group: g })}
              data-testid={`group-${g.name}`}
            >
              {g.name}
            </List.Item>
          ))}
          <List.Item onClick={() => void addGroup(line)} className={styles.meta}>
            + 新增产品组
          </List.Item>
        </List>
      ))}
      <ListFooter query={lines} itemCount={list.length} />

      <OnFirstOpen open={acting !== null}>
        <RowActions
          visible={acting !== null}
          onClose={() => setActing(null)}
          cancelText="取消"
          actions={acting ? actionsOf(acting) : []}
          onAction={() => setActing(null)}
        />
      </OnFirstOpen>
    </AdminPage>
  );
};

export default LinesPage;
