import { facaInfoBody } from '@linewatch/contracts/faca';
import { unbindForm } from '@linewatch/contracts/gateways';
import { describe, expect, it } from 'vitest';
import { lazySchemaResolver } from './lazy-schema-resolver.ts';

/** The resolver reads none of react-hook-form's options. */
const options = {} as never;

const question = {
  snCode: 'LW-S1-005',
  workmanship: '回流焊',
  count: '1',
  warningContent: 'E518',
  facaDescription: '超温',
  hour: '0',
  minute: '0',
  second: '0',
  influenceParameters: '温度',
};

describe('lazySchemaResolver', () => {
  it('hands the submit the parsed body the form’s values make', async () => {
    const resolve = lazySchemaResolver(
      async () => facaInfoBody,
      (values: typeof question) => ({ ...values, snCode: ` ${values.snCode} ` }),
    );
    const result = await resolve(question, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ snCode: 'LW-S1-005', count: 1, hour: 0 });
  });

  it('gives each field the contract’s first message, in the order the schema found them', async () => {
    const resolve = lazySchemaResolver(async () => unbindForm);
    const result = await resolve({ snCode: '', iotId: '' }, undefined, options);
    expect(Object.entries(result.errors).map(([field, e]) => [field, e?.message])).toEqual([
      ['snCode', '请将数据填写完整'],
      ['iotId', '请将数据填写完整'],
    ]);
  });

  it('keeps a union’s own Chinese message (not the English of one of its branches)', async () => {
    const resolve = lazySchemaResolver(async () => facaInfoBody);
    const result = await resolve({ ...question, minute: 'abc' }, undefined, options);
    expect(result.errors.minute?.message).toBe('报警时长只能填写数字');
  });
});
