import type { StopAlarm } from '@linewatch/contracts/history';
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { links, type FacaPrefill } from '../paths.ts';

/**
 * 发起FACA: opens the add-question form prefilled from an alarm (a stop alarm of the device log,
 * an alarm message of the inbox). It sits in rows that open something else: the tap is its own.
 */
export const StartFacaButton = ({ prefill }: { prefill: FacaPrefill }) => {
  const navigate = useNavigate();
  return (
    <Button
      size="mini"
      color="primary"
      fill="outline"
      data-testid="start-faca"
      onClick={(event) => {
        event.stopPropagation();
        void navigate(links.facaAddQuestion(prefill));
      }}
    >
      发起FACA
    </Button>
  );
};

/** The log's times are the factory's wall clock, read as the log's day is (this phone's zone). */
const wallClock = (time: string) => new Date(time.replace(' ', 'T')).getTime();

/**
 * A stop alarm of the device log as a question: one occurrence, lasting from its start to its
 * end, or until now while it is still active.
 */
export const stopAlarmPrefill = (
  snCode: string,
  alarm: StopAlarm,
  now = Date.now(),
): FacaPrefill => {
  const timeLength = (alarm.endTime ? wallClock(alarm.endTime) : now) - wallClock(alarm.beginTime);
  return {
    snCode,
    warningContent: alarm.contentStr,
    count: 1,
    ...(timeLength > 0 ? { timeLength } : {}),
  };
};
