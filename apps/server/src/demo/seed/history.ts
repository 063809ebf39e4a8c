import type { Transaction } from 'kysely';
import type { Database } from '../../foundation/db/schema.ts';
import { startOfDay } from '../../foundation/shared/time.ts';

const MINUTE = 60_000;
/** What people do at a machine, as its operation log records it ('' comment: shown as '/'). */
const ACTIONS = [
  { comment: '调整节拍', setValue: 'PPM 目标 60→65', user: '张伟' },
  { comment: '更换吸嘴', setValue: '吸嘴 N04', user: '李娜' },
  { comment: '', setValue: '回流区温度 245℃', user: '王强' },
  { comment: '首件确认', setValue: 'OK', user: '刘洋' },
  { comment: '清洁传感器', setValue: '/', user: '陈静' },
];

const LINES = 14;

/**
 * A demo operation log: for every machine with history, 14 lines (more than one page of the device
 * log) in the factory day of the seed, which the device log opens on: one action every 25 minutes
 * before the seed, closer together when the day began less than 6 hours earlier.
 */
export const seedOperationLogs = async (
  tx: Transaction<Database>,
  sns: readonly string[],
  now: number,
  timeZone: string,
) => {
  const spacing = Math.min(25 * MINUTE, Math.max(0, now - startOfDay(now, timeZone)) / (LINES + 1));
  const rows = sns.flatMap((sn, m) =>
    Array.from({ length: LINES }, (_, i) => {
      const action = ACTIONS[(i + m) % ACTIONS.length]!;
      return {
        sn_code: sn,
        ts: new Date(now - (i + 1) * spacing),
        comment: action.comment,
        set_value: action.setValue,
        user_name: action.user,
      };
    }),
  );
  for (let i = 0; i < rows.length; i += 1000)
    await tx
      .insertInto('operation_logs')
      .values(rows.slice(i, i + 1000))
      .execute();
};
