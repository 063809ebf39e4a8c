import {
  subscriptionMessages,
  TIME_LENGTH,
  type FollowSettings,
} from '@linewatch/contracts/subscriptions';
import { Button, Checkbox, List, NavBar, Switch } from 'antd-mobile';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { lazy, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { ListState } from '../../../shared/components/list-state.tsx';
import { OnFirstOpen } from '../../../shared/perf/on-first-open.tsx';
import { paths } from '../../../shared/paths.ts';
import { toastFailure } from '../../../shared/toast.ts';
import { useAddFollow, useConfirmedCancel, useFollowSettings } from '../api.ts';
import styles from './follow-setting-page.module.css';
import { machineRefusalOf } from '../../../shared/refusal.ts';
import { useGoBack } from '../../../shared/use-go-back.ts';

// Opened by a tap on 停机时长超过: the picker loads then (OnFirstOpen), its popup brings react-spring.
const Picker = lazy(() =>
  import('../components/picker.ts').then(({ Picker }) => ({ default: Picker })),
);

interface Form {
  realTimeReminder: boolean;
  threeParameters: boolean;
  alarm: boolean;
  daily: boolean;
  week: boolean;
  statistics: boolean;
  timeLength: number;
}

/** The form starts from the machine's settings; 统计 is on when a report type is. */
const formOf = (s: FollowSettings): Form => ({
  realTimeReminder: s.realTimeReminder,
  threeParameters: s.threeParameters,
  alarm: s.alarm,
  daily: s.daily,
  week: s.week,
  statistics: s.daily || s.week,
  timeLength: s.timeLength,
});

const pickerColumns = [
  TIME_LENGTH.hours.map((h) => ({ label: `${h}小时`, value: String(h) })),
  TIME_LENGTH.minutes.map((m) => ({ label: `${m}分钟`, value: String(m) })),
];

const durationText = (ms: number) => {
  const { hours, minutes } = TIME_LENGTH.toPicker(ms);
  return `${hours}小时${minutes}分钟`;
};

/** A rule of the subscription, on or off. */
const SwitchItem = ({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  testId: string;
}) => (
  <List.Item
    extra={<Switch checked={checked} onChange={onChange} aria-label={label} data-testid={testId} />}
  >
    {label}
  </List.Item>
);

/**
 * /followSetting?snCode=a,b: the subscription of one machine or a batch (docs/product.md sections 2, 5),
 * shown once the first machine's settings are here, so no tap is overwritten by their arrival.
 */
const FollowSettingPage = () => {
  const goBack = useGoBack();
  const [params] = useSearchParams();
  const snCodes = (params.get('snCode') ?? '').split(',').filter(Boolean);
  const settings = useFollowSettings(snCodes[0] ?? '');

  if (snCodes.length === 0)
    return (
      <BlankState icon={<ExclamationCircleOutline />} title={subscriptionMessages.selectMachine} />
    );
  const refused = machineRefusalOf(settings.error);
  if (refused)
    return (
      <div className={styles.page}>
        <NavBar onBack={goBack}>订阅设置</NavBar>
        <BlankState icon={<ExclamationCircleOutline />} title={refused} testId="follow-refused" />
      </div>
    );
  if (!settings.data)
    return (
      <div className={styles.page}>
        <NavBar onBack={goBack}>订阅设置</NavBar>
        <ListState
          state={settings.isError ? 'error' : 'loading'}
          onRetry={() => void settings.refetch()}
        />
      </div>
    );
  return <SettingsForm key={snCodes.join(',')} snCodes={snCodes} settings={settings.data} />;
};

const SettingsForm = ({
  snCodes,
  settings,
}: {
  snCodes: readonly string[];
  settings: FollowSettings;
}) => {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const add = useAddFollow();
  const cancel = useConfirmedCancel();
  const [form, setForm] = useState<Form>(() => formOf(settings));
  const [pickerOpen, setPickerOpen] = useState(false);

  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  // Checking 统计 with no report type selects both; unchecking clears them (docs/product.md section 5). A
  // report type checked checks 统计; unchecking both leaves it checked, for the save to refuse.
  const setStatistics = (on: boolean) =>
    set(
      on && !form.daily && !form.week
        ? { statistics: true, daily: true, week: true }
        : on
          ? { statistics: true }
          : { statistics: false, daily: false, week: false },
    );

  const save = () => {
    if (form.statistics && !form.daily && !form.week) {
      toastFailure(subscriptionMessages.needReportType);
      return;
    }
    add.mutate({ ...form, snCode: snCodes.join(',') }, { onSuccess: goBack });
  };

  return (
    <div className={styles.page}>
      <NavBar onBack={goBack}>订阅设置</NavBar>
      <div className={styles.machines} data-testid="follow-machines">
        {snCodes.length === 1 ? (
          <span className={styles.snCode}>{snCodes[0]}</span>
        ) : (
          <>
            已选 {snCodes.length} 台：
            {snCodes.slice(0, 8).map((sn, i) => (
              <span key={sn}>
                {i > 0 ? '、' : ''}
                <span className={styles.snCode}>{sn}</span>
              </span>
            ))}
            {snCodes.length > 8 ? '…' : ''}
          </>
        )}
      </div>
      <List header="告警">
        <SwitchItem
          label="报警推送"
          checked={form.alarm}
          onChange={(alarm) => set({ alarm })}
          testId="follow-alarm"
        />
        <SwitchItem
          label="停机提醒"
          checked={form.realTimeReminder}
          onChange={(realTimeReminder) => set({ realTimeReminder })}
          testId="follow-reminder"
        />
        {form.realTimeReminder ? (
          <List.Item
            extra={durationText(form.timeLength)}
            onClick={() => setPickerOpen(true)}
            data-testid="follow-duration"
          >
            停机时长超过
          </List.Item>
        ) : null}
        <SwitchItem
          label="三参数未达标"
          checked={form.threeParameters}
          onChange={(threeParameters) => set({ threeParameters })}
          testId="follow-three"
        />
      </List>
      <List header="统计">
        <List.Item>
          <Checkbox
            checked={form.statistics}
            onChange={setStatistics}
            data-testid="follow-statistics"
          >
            统计报表
          </Checkbox>
        </List.Item>
        <List.Item>
          <div className={styles.reportTypes}>
            <Checkbox
              checked={form.daily}
              onChange={(daily) => set({ daily, ...(daily && { statistics: true }) })}
              data-testid="follow-daily"
            >
              日报
            </Checkbox>
            <Checkbox
              checked={form.week}
              onChange={(week) => set({ week, ...(week && { statistics: true }) })}
              data-testid="follow-week"
            >
              周报
            </Checkbox>
          </div>
        </List.Item>
      </List>
      <div className={styles.actions}>
        <Button
          block
          color="primary"
          loading={add.isPending}
          onClick={save}
          data-testid="follow-save"
        >
          保存
        </Button>
        {settings.isFollow || snCodes.length > 1 ? (
          <Button
            block
            loading={cancel.pending}
            onClick={() => void cancel.run(snCodes, () => void navigate(paths.subscription))}
            data-testid="follow-cancel"
          >
            取消关注
          </Button>
        ) : null}
      </div>
      <OnFirstOpen open={pickerOpen}>
        <Picker
          columns={pickerColumns}
          visible={pickerOpen}
          onClose={() => setPickerOpen(false)}
          value={(() => {
            const { hours, minutes } = TIME_LENGTH.toPicker(form.timeLength);
            return [String(hours), String(minutes)];
          })()}
          onConfirm={(value) =>
            set({ timeLength: TIME_LENGTH.ofPicker(Number(value[0]), Number(value[1])) })
          }
        />
      </OnFirstOpen>
    </div>
  );
};

export default FollowSettingPage;
