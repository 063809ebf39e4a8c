import type { Executor } from '../../notifications/service.ts';
import { dayOf } from '../../foundation/shared/time.ts';

const WORKMANSHIPS = ['贴片', '回流焊', '波峰焊', '组装', '测试', '包装'];
const INFLUENCE_PARAMETERS = ['温度', '压力', '速度', '物料', '人员', '设备', '环境'];
const DAY = 86_400_000;

/**
 * FACA samples for the demo: the option lists, a question under way on the reflow oven (an FA
 * with a CA handed to the operator, due tomorrow) and one nobody has analysed yet, on another
 * reflow oven; their alarms in the words of alarm_definitions.
 */
export const seedFaca = async (tx: Executor, timeZone: string, now: number) => {
  await tx
    .insertInto('faca_workmanships')
    .values(WORKMANSHIPS.map((name) => ({ name })))
    .execute();
  await tx
    .insertInto('faca_influence_parameters')
    .values(INFLUENCE_PARAMETERS.map((name) => ({ name })))
    .execute();
  const operator = await tx
    .selectFrom('users')
    .select('id')
    .where('psn_code', '=', 'operator')
    .executeTakeFirstOrThrow();
  const who = '王厂长';
  // An alarm as every other screen says it: its code and the one dictionary's description
  // (alarm_definitions), not a text of this file's own.
  const definitions = new Map(
    (await tx.selectFrom('alarm_definitions').select(['code', 'description']).execute()).map(
      (d) => [d.code, d.description],
    ),
  );
  const alarm = (code: string) => `${code} ${definitions.get(code) ?? ''}`.trim();
  const [underWay] = await tx
    .insertInto('faca_questions')
    .values([
      {
        sn_code: 'LW-S1-005',
        workmanship: '回流焊',
        count: 3,
        warning_content: alarm('E518'),
        faca_description: '回流焊第3温区连续三次超温停机，PCB 有轻微变色',
        time_length: (6 * 3600 + 12 * 60) * 1000,
        influence_parameters: '温度,设备',
        data_from: '报警记录',
        update_user: who,
      },
      {
        // LW-S1-002 is 回流焊炉01 (seed.ts): a reflow oven whose board feed timed out.
        sn_code: 'LW-S1-002',
        workmanship: '回流焊',
        count: 1,
        warning_content: alarm('E101'),
        faca_description: '回流焊炉进板轨道送料超时停机，链条有卡滞',
        time_length: 25 * 60 * 1000,
        influence_parameters: '物料,设备',
        data_from: '手动录入',
        update_user: who,
      },
    ])
    .returning('id')
    .execute();
  const fa = await tx
    .insertInto('faca_fas')
    .values({
      faca_id: underWay!.id,
      fa_num: 1,
      fa_description: '第3温区热电偶老化，读数偏低导致加热过度',
      update_user: who,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('faca_cas')
    .values({
      faca_id: underWay!.id,
      fa_id: fa.id,
      seq: 1,
      ca_description: '更换第3温区热电偶并重新校准温度曲线',
      handler_ids: [operator.id],
      resolving_time: dayOf(now + DAY, timeZone),
      update_user: who,
    })
    .execute();
};
