import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// A field left out got zod's generic 无效输入：期望 string，实际接收 undefined (the review's
// validation sweep: 5 of 12 cases, an empty 设备名称 in the machine sheet, `admin add-machine`
// without --device-name). Every schema a person's client sends — a form, a body, a query, a
// socket message, a sheet row — names what is missing in its own words. This sweeps them all,
// so a new schema without its messages fails here.

// The server's locale (plugins/security.ts): the generic messages below are its.
z.config(z.locales.zhCN());
// Every wording of zod's zh-CN locale (none of the contracts' own messages reads so).
const GENERIC = /^(?:无效|数值过[大小]|出现未知的键)|中的键\(key\)无效|中包含无效值/;

const here = new URL('./', import.meta.url);
const modules = await Promise.all(
  readdirSync(here)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map(async (file) => ({
      file,
      exports: (await import(new URL(file, here).href)) as Record<string, unknown>,
    })),
);

/** What machines send and read (gateways over MQTT, their commands, the PLC register maps). */
const MACHINE_FILES = new Set(['mqtt.ts', 'gateway-commands.ts', 'plc-profiles.ts']);

/**
 * What the server answers, never what a person sends: its messages are never shown (a reply
 * the serializer refuses is a 0500). Names ending in Reply are replies too.
 */
const REPLIES = new Set([
  'adminApplication',
  'adminGroup',
  'adminLine',
  'adminMachine',
  'adminUser',
  'auditEntry',
  'channelSettings',
  'inboxMessage',
  'applicationProgress',
  'smsMessage',
  'failureCase',
  'machineCard',
  'menuNode',
  'statusSummary',
  'caInfo',
  'faInfo',
  'facaInfo',
  'facaInfoIds',
  'handlerOption',
  'mediaRef',
  'namedOption',
  'savedId',
  'task',
  'detailRow',
  'dtPoint',
  'dtRow',
  'operationLog',
  'stopAlarm',
  'threeParamPoint',
  'topAlarm',
  'dingtalkConfig',
  'sessionInfo',
  'userInfo',
  'userProfile',
  'mapPoint',
  'mapPoints',
  'mapStatus',
  'option',
  'statisticsRow',
  'dictItem',
  'followRow',
  'followSettings',
  'realtimePayload',
]);

const requestSchemas = modules.flatMap(({ file, exports }) =>
  MACHINE_FILES.has(file)
    ? []
    : Object.entries(exports)
        .filter(
          (entry): entry is [string, z.ZodType] =>
            entry[1] instanceof z.ZodType && !entry[0].endsWith('Reply') && !REPLIES.has(entry[0]),
        )
        .map(([name, schema]) => ({ name: `${file.slice(0, -3)}.${name}`, schema })),
);

describe('a required field left out', () => {
  it('finds the schemas to sweep', () => {
    expect(requestSchemas.map((s) => s.name)).toEqual(
      expect.arrayContaining(['admin.machineBody', 'admin.machineImportRow', 'faca.caInfoBody']),
    );
  });

  it.each(requestSchemas)('$name names what is missing in its own words', ({ schema }) => {
    const result = schema.safeParse({});
    const generic = result.success
      ? []
      : result.error.issues
          .filter((issue) => issue.path.length > 0 && GENERIC.test(issue.message))
          .map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(generic).toEqual([]);
  });
});
