import { messages, ReplyCode } from '@linewatch/contracts/envelope';
import { ApiError } from './api-client.ts';
import { webMessages } from './messages.ts';

/**
 * What to say on a machine's page when the server refused the machine — one the user may not see
 * (0403 无权查看，请联系管理员) or one that does not exist (0404: 请从设备列表重新选择设备) — or
 * null for any other failure. A retry cannot change a refusal, so the page says it instead of
 * offering one, and offers nothing that acts on the machine.
 */
export const machineRefusalOf = (error: unknown): string | null =>
  error instanceof ApiError
    ? error.code === ReplyCode.forbidden
      ? messages.forbidden
      : error.code === ReplyCode.notFound
        ? webMessages.reselectDevice
        : null
    : null;
