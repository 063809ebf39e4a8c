import type { FailureCase, FailureCaseQuery } from './cases.ts';
import { endpoint } from './endpoint.ts';

/** Fault-alarm troubleshooting (docs/product.md sections 2, 7): public, reveals only the case. */
export const casesApi = {
  failureCase: endpoint<FailureCaseQuery, FailureCase>('GET', '/api/wechat/getWeChatFailureCases'),
} as const;
