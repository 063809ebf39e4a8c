import { z } from 'zod';

export const caseMessages = {
  badCasesId: '故障案例编号无效',
  notFound: '该故障案例不存在',
} as const;

/** Query of GET /api/wechat/getWeChatFailureCases. */
export const failureCaseQuery = z.object({
  casesId: z.coerce
    .number({ error: caseMessages.badCasesId })
    .int(caseMessages.badCasesId)
    .positive(caseMessages.badCasesId),
});
export type FailureCaseQuery = z.input<typeof failureCaseQuery>;

/** A troubleshooting case (docs/product.md section 3, Failure case): what the public /faultAlarm shows, nothing more. */
export const failureCase = z.object({
  id: z.number(),
  warningCode: z.string(),
  description: z.string(),
  snCode: z.string(),
  deviceName: z.string(),
  shootings: z.array(
    z.object({
      label: z.string(),
      picUrl: z.array(z.string()),
      videoUrl: z.string().nullable(),
      steps: z.array(z.object({ label: z.string(), picUrl: z.string().nullable() })),
    }),
  ),
});
export type FailureCase = z.infer<typeof failureCase>;
