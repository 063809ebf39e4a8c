import {
  alertMessages,
  type DailyOrWeeklyQuery,
  type ReportReply,
} from '@linewatch/contracts/alerts';
import { Button, NavBar, Selector, Tabs } from 'antd-mobile';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Chart, type ChartOption } from '../../../shared/charts/chart.tsx';
import { dtOption, threeParamOption } from '../../../shared/charts/period-charts.ts';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { downloadReport, useReport } from '../api.ts';
import styles from './alerts-pages.module.css';
import { machineRefusalOf } from '../../../shared/refusal.ts';
import { useGoBack } from '../../../shared/use-go-back.ts';

/** The alarm record: times and minutes of the top alarms, in the history charts' frame. */
const alarmOption = (r: ReportReply): ChartOption => ({
  grid: { left: 36, right: 12, top: 36, bottom: 28 },
  legend: { top: 0, itemWidth: 14, textStyle: { fontSize: 11 } },
  tooltip: { trigger: 'axis' },
  xAxis: { type: 'category', data: r.dtTop.map((a) => a.code) },
  yAxis: { type: 'value', splitNumber: 4 },
  series: [
    { name: '次数', type: 'bar', data: r.dtTop.map((a) => a.times) },
    { name: '时长(分钟)', type: 'bar', data: r.dtTop.map((a) => a.duration) },
  ],
});

/** /report?snCode=a,b&alarmType=date|week&beginTime=…: the daily/weekly report a report message opens. */
const ReportPage = () => {
  const goBack = useGoBack();
  const [params] = useSearchParams();
  const snCodes = (params.get('snCode') ?? '').split(',').filter(Boolean);
  const [snCode, setSnCode] = useState(snCodes[0] ?? '');
  const [tab, setTab] = useState('three');
  const alarmType = params.get('alarmType') === 'week' ? 'week' : 'date';
  const query = useMemo(
    () =>
      ({
        snCode,
        alarmType,
        endTime: params.get('beginTime') ?? '',
        isReport: params.get('isReport') ?? '',
      }) as const,
    [snCode, alarmType, params],
  );

  if (snCodes.length === 0)
    return (
      <BlankState
        icon={<ExclamationCircleOutline />}
        title={alertMessages.noDevice}
        testId="report-no-device"
      />
    );

  return (
    <div className={styles.page}>
      <NavBar onBack={goBack}>{alarmType === 'week' ? '周报' : '日报'}</NavBar>
      {snCodes.length > 1 ? (
        <div className={styles.toolbar}>
          <Selector
            options={snCodes.map((sn) => ({ label: sn, value: sn }))}
            value={[snCode]}
            onChange={(v) => setSnCode(v[0] ?? '')}
          />
        </div>
      ) : null}
      {snCode === '' ? (
        // The machines' selector deselected: nothing to read until one is chosen again.
        <BlankState
          icon={<ExclamationCircleOutline />}
          title={alertMessages.chooseDevice}
          testId="report-choose-device"
        />
      ) : (
        <ReportOf query={query} tab={tab} onTab={setTab} />
      )}
    </div>
  );
};

/** One machine's report: its title, the download and the three tabs. */
const ReportOf = ({
  query,
  tab,
  onTab,
}: {
  query: DailyOrWeeklyQuery;
  tab: string;
  onTab: (tab: string) => void;
}) => {
  const report = useReport(query);
  const data = report.data;
  const refused = machineRefusalOf(report.error);
  const options = useMemo(
    () =>
      data
        ? {
            three: threeParamOption(data.threeParam),
            dt: dtOption(data.dt),
            alarm: alarmOption(data),
          }
        : null,
    [data],
  );
  // A machine the user may not see (or none has this SN): said once, nothing to download.
  if (refused)
    return (
      <BlankState icon={<ExclamationCircleOutline />} title={refused} testId="report-refused" />
    );
  return (
    <>
      <div className={styles.toolbar}>
        <span
          className={styles.reportTitle}
          role="heading"
          aria-level={2}
          data-testid="report-title"
        >
          {/* Each part whole: a line may break between the machine and its dates, never inside. */}
          {data ? (
            <>
              <span className={styles.noWrap}>{data.nickSnCode || data.snCode}</span>{' '}
              {data.deviceName} <span className={styles.noWrap}>{data.beginTime}</span>
              {data.beginTime === data.endTime ? null : (
                <>
                  {' '}
                  <span className={styles.noWrap}>至 {data.endTime}</span>
                </>
              )}
            </>
          ) : (
            query.snCode
          )}
        </span>
        <Button
          size="mini"
          color="primary"
          className={styles.noWrap}
          onClick={() => void downloadReport(query)}
          data-testid="report-download"
        >
          下载Excel
        </Button>
      </div>
      <Tabs activeKey={tab} onChange={onTab}>
        <Tabs.Tab title="三参数" key="three" />
        <Tabs.Tab title="DT" key="dt" />
        <Tabs.Tab title="报警记录" key="alarm" />
      </Tabs>
      <div className={styles.section} data-testid={`report-tab-${tab}`}>
        {options ? (
          <Chart option={options[tab as keyof typeof options]} testId="report-chart" />
        ) : null}
        {data && tab === 'alarm' ? (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>代码</th>
                <th>描述</th>
                <th>次数</th>
                <th>分钟</th>
                <th>占比</th>
              </tr>
            </thead>
            <tbody>
              {data.dtTop.map((a) => (
                <tr key={a.code}>
                  <td>{a.code}</td>
                  <td>{a.description}</td>
                  <td>{a.times}</td>
                  <td>{a.duration}</td>
                  <td>{a.percentage}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </>
  );
};

export default ReportPage;
