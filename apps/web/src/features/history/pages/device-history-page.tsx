import { historyMessages, type HistoryQuery, type PageType } from '@linewatch/contracts/history';
import { dayRangeProblem } from '@linewatch/contracts/rules/range';
import { Button, DotLoading } from 'antd-mobile';
import { LeftOutline, RightOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-client.ts';
import { TabBar } from '../../../shared/components/tab-bar.tsx';
import { toastFailure } from '../../../shared/toast.ts';
import { useHistory, useHistoryDetail, useHistoryDt, useMachineTitle } from '../api.ts';
import { ChartCard } from '../components/chart-card.tsx';
import { dtOption, threeParamOption } from '../../../shared/charts/period-charts.ts';
import { DayPicker } from '../components/day-picker.tsx';
import { DetailTable, DtList } from '../components/detail-table.tsx';
import { NoDevice, Waiting } from '../components/page-states.tsx';
import { TopAlarms } from '../components/top-alarms.tsx';
import { addDays, calendarMin, dayString, defaultDay, defaultRange, today } from '../dates.ts';
import styles from './device-history-page.module.css';

type Mode = 'day' | 'range';
type Display = 'chart' | 'table';
type Tab = 'param' | 'dt' | 'top';

const HISTORY_TABS = [
  { key: 'param', title: <span data-testid="history-tab-param">参数数据</span> },
  { key: 'dt', title: <span data-testid="history-tab-dt">DT</span> },
];
/** Shown only when the period has alarms. */
const TOP_TAB = { key: 'top', title: <span data-testid="history-tab-top">报警TOP5</span> };

const GROUPINGS: readonly { key: PageType; label: string }[] = [
  { key: 'date', label: '按日' },
  { key: 'week', label: '按周' },
];

/**
 * Device history (docs/product.md section 2), also opened as /threeParam from a message link: one day by
 * hour, or a range (at most 31 days) by day or by week (the history reply's pageType date or
 * week, docs/product.md section 3) as charts or a table; tabs for the three parameters, DT and the alarm TOP5.
 */
const DeviceHistoryPage = () => {
  const [params] = useSearchParams();
  const snCode = params.get('snCode')?.trim() || null;
  const [mode, setMode] = useState<Mode>('day');
  const [display, setDisplay] = useState<Display>('chart');
  const [tab, setTab] = useState<Tab>('param');
  const [day, setDay] = useState(defaultDay);
  const [range, setRange] = useState(defaultRange);
  const [grouping, setGrouping] = useState<PageType>('date');

  const query = useMemo<HistoryQuery | null>(() => {
    if (!snCode) return null;
    return mode === 'day'
      ? { snCode, beginTime: day, endTime: day }
      : { snCode, beginTime: range.from, endTime: range.to, pageType: grouping };
  }, [snCode, mode, day, range, grouping]);
  const history = useHistory(query);
  const dt = useHistoryDt(tab === 'dt' ? query : null);
  // The detail endpoint is by day; a table by week reads the history reply's weekly rows.
  const byWeek = mode === 'range' && grouping === 'week';
  const title = useMachineTitle(snCode ?? '', history.data);
  const detail = useHistoryDetail(
    query && mode === 'range' && display === 'table' && !byWeek
      ? { snCode: query.snCode, startTime: query.beginTime, endTime: query.endTime }
      : null,
  );

  if (!snCode) return <NoDevice />;
  // A machine the user may not see, or none has: the whole page says so.
  const { error } = history;
  if (error instanceof ApiError && (error.code === '0403' || error.code === '0404'))
    return <Waiting query={history} testId="history" />;

  // docs/product.md section 4: switching to range forces the table, switching to day forces the chart.
  const switchMode = (next: Mode) => {
    setMode(next);
    setDisplay(next === 'range' ? 'table' : 'chart');
  };
  const pickRange = (from: string, to: string) => {
    const problem = dayRangeProblem(from, to);
    if (problem) toastFailure(problem);
    else setRange({ from, to });
  };

  // The figures only of the period shown: the previous day's chart under a new date (kept while
  // it loads, and for good when it failed offline) would be read as that day's.
  const data = history.isPlaceholderData ? undefined : history.data;
  // A day with nothing recorded shows only its notice, alarms or not.
  const hasTop = Boolean(data?.hasData) && (data?.dtTop.length ?? 0) > 0;
  const activeTab = tab === 'top' && !hasTop ? 'param' : tab;

  const body = () => {
    if (!data) return <Waiting query={history} testId="history" />;
    if (!data.hasData) {
      return (
        <div className={styles.noData} data-testid="history-no-data">
          {historyMessages.noData}
        </div>
      );
    }
    const asTable = mode === 'range' && display === 'table';
    if (activeTab === 'top') return <TopAlarms items={data.dtTop} />;
    // A list or table shows only its own rows: the previous view's kept while the next loads (an
    // hour's 24 rows, say, as the range's days) would be read as this one's.
    if (activeTab === 'dt') {
      const dtData = dt.data;
      if (!dtData || (asTable && dt.isPlaceholderData)) return <Waiting query={dt} testId="dt" />;
      return asTable ? (
        <DtList rows={dtData.dtList} byWeek={byWeek} />
      ) : (
        <ChartCard title="DT(停机时间)" option={dtOption(dtData.dt)} testId="dt-chart" />
      );
    }
    if (asTable) {
      if (byWeek) return <DetailTable rows={data.threeParamList} byWeek />;
      if (!detail.data) return <Waiting query={detail} testId="detail" />;
      return <DetailTable rows={detail.data.detailData} />;
    }
    return (
      <ChartCard title="参数数据" option={threeParamOption(data.threeParam)} testId="param-chart" />
    );
  };

  return (
    <div className={styles.page}>
      <h1 className={styles.title} data-testid="history-title">
        {title}
      </h1>
      <div className={styles.controls}>
        <div className={styles.modes}>
          {(['day', 'range'] as const).map((m) => (
            <Button
              key={m}
              size="small"
              color={mode === m ? 'primary' : 'default'}
              fill={mode === m ? 'solid' : 'outline'}
              onClick={() => switchMode(m)}
              data-testid={`history-mode-${m}`}
            >
              {m === 'day' ? '单日' : '区间'}
            </Button>
          ))}
          {mode === 'range' ? (
            <Button
              size="small"
              fill="none"
              onClick={() => setDisplay(display === 'table' ? 'chart' : 'table')}
              data-testid="history-display"
            >
              {display === 'table' ? '图表' : '表格'}
            </Button>
          ) : null}
        </div>
        {mode === 'range' ? (
          <div className={styles.modes}>
            {GROUPINGS.map((g) => (
              <Button
                key={g.key}
                size="mini"
                color={grouping === g.key ? 'primary' : 'default'}
                fill={grouping === g.key ? 'solid' : 'outline'}
                onClick={() => setGrouping(g.key)}
                data-testid={`history-group-${g.key}`}
                aria-pressed={grouping === g.key}
              >
                {g.label}
              </Button>
            ))}
          </div>
        ) : null}
        {mode === 'day' ? (
          <div className={styles.dates}>
            <Button
              size="small"
              fill="none"
              aria-label="前一天"
              disabled={day <= dayString(calendarMin)}
              onClick={() => setDay(addDays(day, -1))}
              data-testid="history-prev"
            >
              <LeftOutline />
            </Button>
            <DayPicker value={day} onChange={setDay} testId="history-day" />
            <Button
              size="small"
              fill="none"
              aria-label="后一天"
              disabled={day >= today()}
              onClick={() => setDay(addDays(day, 1))}
              data-testid="history-next"
            >
              <RightOutline />
            </Button>
          </div>
        ) : (
          <div className={styles.dates}>
            <DayPicker
              value={range.from}
              onChange={(from) => pickRange(from, range.to)}
              testId="history-from"
            />
            <span>至</span>
            <DayPicker
              value={range.to}
              onChange={(to) => pickRange(range.from, to)}
              testId="history-to"
            />
          </div>
        )}
      </div>
      <TabBar
        tabs={hasTop ? [...HISTORY_TABS, TOP_TAB] : HISTORY_TABS}
        activeKey={activeTab}
        onChange={(key) => setTab(key as Tab)}
      />
      <div className={styles.body}>
        {history.isFetching && data ? (
          <div className={styles.refreshing}>
            <DotLoading />
          </div>
        ) : null}
        {body()}
      </div>
    </div>
  );
};

export default DeviceHistoryPage;
