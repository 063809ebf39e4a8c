import type { StopAlarm } from '@linewatch/contracts/history';
import { PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListState } from '../../../shared/components/list-state.tsx';
import { TabBar } from '../../../shared/components/tab-bar.tsx';
import {
  StartFacaButton,
  stopAlarmPrefill,
} from '../../../shared/components/start-faca-button.tsx';
import { useOperationLog, useStopAlarms } from '../api.ts';
import { DayPicker } from '../components/day-picker.tsx';
import { OperationItem, StopAlarmItem } from '../components/log-items.tsx';
import { NoDevice, Waiting } from '../components/page-states.tsx';
import { Pager } from '../../../shared/components/pager.tsx';
import { today } from '../dates.ts';
import styles from './device-log-page.module.css';

type Tab = 'alarms' | 'operations';

const LOG_TABS = [
  { key: 'alarms', title: <span data-testid="log-tab-alarms">停机报警</span> },
  { key: 'operations', title: <span data-testid="log-tab-operations">操作日志</span> },
];

const alarmKey = (a: StopAlarm) => `${a.contentStr}|${a.beginTime}`;

const StopAlarms = ({ snCode, date }: { snCode: string; date: string }) => {
  const [page, setPage] = useState(1);
  const query = useStopAlarms({ snCode, date, pageNumber: page, pageSize: PAGE_SIZE.stopAlarm });
  const data = query.data;
  if (!data) return <Waiting query={query} testId="log" />;
  // A current warning that began this day is in the day's list, flagged there; the others
  // (begun on an earlier day, still active) are shown above it.
  const listed = new Set(data.data.map(alarmKey));
  const earlier = data.currentWarning.filter((a) => !listed.has(alarmKey(a)));
  const empty = earlier.length === 0 && data.data.length === 0;
  return (
    <>
      {earlier.length > 0 ? (
        <ul className={styles.list} aria-label="当前报警" data-testid="current-warnings">
          {earlier.map((a) => (
            <StopAlarmItem
              key={alarmKey(a)}
              alarm={a}
              current
              action={<StartFacaButton prefill={stopAlarmPrefill(snCode, a)} />}
            />
          ))}
        </ul>
      ) : null}
      {empty ? <ListState state="empty" /> : null}
      {data.data.length > 0 ? (
        <>
          <ul className={styles.list} aria-label="停机报警">
            {data.data.map((a) => (
              <StopAlarmItem
                key={alarmKey(a)}
                alarm={a}
                action={<StartFacaButton prefill={stopAlarmPrefill(snCode, a)} />}
              />
            ))}
          </ul>
          <Pager
            page={page}
            totalPage={data.page.totalPage}
            onChange={setPage}
            testId="alarm-pager"
          />
        </>
      ) : null}
    </>
  );
};

const Operations = ({ snCode, date }: { snCode: string; date: string }) => {
  const [page, setPage] = useState(1);
  // The operation log pages as the stop alarms do (the spec names no size of its own).
  const query = useOperationLog({
    snCode,
    startTime: date,
    endTime: date,
    pageIndex: page,
    pageSize: PAGE_SIZE.stopAlarm,
  });
  const data = query.data;
  if (!data) return <Waiting query={query} testId="log" />;
  if (data.data.length === 0) return <ListState state="empty" />;
  return (
    <>
      <ul className={styles.list} aria-label="操作日志">
        {data.data.map((log, i) => (
          <OperationItem key={`${log.recordTime}-${i}`} log={log} />
        ))}
      </ul>
      <Pager page={page} totalPage={data.totalPage} onChange={setPage} testId="operation-pager" />
    </>
  );
};

/** Device log (docs/product.md section 2): stop alarms and operation log of one day, paged. */
const DeviceLogPage = () => {
  const [params] = useSearchParams();
  const snCode = params.get('snCode')?.trim() || null;
  const [tab, setTab] = useState<Tab>('alarms');
  const [date, setDate] = useState(today);

  if (!snCode) return <NoDevice />;
  return (
    <div className={styles.page}>
      <TabBar tabs={LOG_TABS} activeKey={tab} onChange={(key) => setTab(key as Tab)} />
      <div className={styles.date}>
        <span>日期</span>
        <DayPicker value={date} onChange={setDate} testId="log-date" />
      </div>
      {/* keyed by the day: a new day starts again at page 1 */}
      {tab === 'alarms' ? (
        <StopAlarms key={date} snCode={snCode} date={date} />
      ) : (
        <Operations key={date} snCode={snCode} date={date} />
      )}
    </div>
  );
};

export default DeviceLogPage;
