import type { Executor } from '../../notifications/service.ts';
import { dayOf } from '../../shared/time.ts';

const WORKMANSHIPS = ['贴片', '回流焊', '波峰焊', '组装', '测试', '包装'];
const INFLUENCE_PARAMETERS = ['温度', '压力', '速度', '物料', '人员', '设备', '环境'];
const DAY = 86_400_000;

/**
 * FACA samples for the demo: the option lists, a question under way on the reflow oven (an FA
 * with a CA handed to the operator, due tomorrow) and one nobody has analysed yet.
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
  const [underWay] = await tx
    .insertInto('faca_questions')
    .values([
      {
        sn_code: 'LW-S1-005',
        workmanship: '回流焊',
        count: 3,
        warning_content: 'E518 温度过高',
        faca_description: '回流焊第3温区连续三次超温停机，PCB 有轻微变色',
        time_length: (6 * 3600 + 12 * 60) * 1000,
        influence_parameters: '温度,设备',
        data_from: '报警记录',
        update_user: who,
      },
      {
        sn_code: 'LW-S1-002',
        workmanship: '贴片',
        count: 1,
        warning_content: 'E101 吸嘴堵塞',
        faca_description: '贴片机吸嘴频繁堵塞，抛料率升高',
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
