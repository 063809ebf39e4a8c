import { z } from 'zod';
import { machineState } from './mqtt.ts';
import { text } from './primitives.ts';

/*
 * The real-time socket's messages (paths in telemetry-api.ts, close codes and labels in socket.ts).
 * Apart from socket.ts so the real-time report loads these schemas, and zod, after its first paint.
 */

/** The real-time report's figures (labels: productDataNames in socket.ts). */
const productDataKeys = [
  'ppm',
  'peakPpm',
  'avgPpm',
  'yield',
  'produced',
  'ok',
  'ng',
  'dt',
] as const;
export type ProductDataKey = (typeof productDataKeys)[number];

/** The server never shows these (a bad message closes the socket); they name what is wrong. */
const clientMessages = {
  sn: '请选择查阅的设备',
  msgType: '消息类型只能是 machineFunction',
  functionName: '功能名称只能是 machineList',
} as const;

/** What the phone sends on /ws/realtime/:snCode on open and every 30 s (docs/product.md section 7). */
export const realtimeClientMessage = z.object({
  SN: text(undefined, clientMessages.sn).max(64),
  MsgType: z.literal('machineFunction', { error: clientMessages.msgType }),
  machineFunctionName: z.literal('machineList', { error: clientMessages.functionName }),
});
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessage>;

/** The real-time payload: EquipmentStatus, productData, progress, dateData (docs/product.md section 3). */
export const realtimePayload = z.object({
  MsgType: z.literal('machineList'),
  SN: z.string(),
  deviceName: z.string(),
  /** 0 when the machine is offline (no telemetry for 60 s). */
  EquipmentStatus: z.union([machineState, z.literal(0)]),
  /** When the last reading was taken (epoch ms), null if the machine never reported. */
  updatedAt: z.number().nullable(),
  /** The machine's active alarms; description null for a code with no definition. */
  alarms: z.array(z.object({ code: z.string(), description: z.string().nullable() })),
  /**
   * yield is a percent, dt is seconds, the rest are counts or parts per minute. null: no data
   * (a ratio with no denominator: yield with no parts, average PPM with no running minute).
   */
  productData: z.array(
    z.object({ key: z.enum(productDataKeys), name: z.string(), value: z.number().nullable() }),
  ),
  /**
   * The first bar compares today's count with the target due by now: amountName '目标(至当前)'
   * while the day is in progress (docs/design.md section 5).
   */
  progress: z.array(
    z.object({
      existingName: z.string(),
      existing: z.number(),
      amountName: z.string(),
      amount: z.number(),
      /** Two decimals, capped at 100; "0.00" if either value is 0 (docs/product.md section 9). */
      percent: z.string(),
    }),
  ),
  /**
   * Produced per hour over the last 24 hours, oldest first. The last hour is in progress:
   * `partial` gives the fraction of it elapsed, so a chart can mark it rather than show a dip.
   */
  dateData: z.array(
    z.object({ hour: z.string(), produced: z.number(), partial: z.number().optional() }),
  ),
});
export type RealtimePayload = z.infer<typeof realtimePayload>;
