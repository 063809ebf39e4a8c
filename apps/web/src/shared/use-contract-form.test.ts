import { applyForm, applicationMessages, mobileSchema } from '@linewatch/contracts/applications';
import { adminMessages, rejectBody } from '@linewatch/contracts/admin';
import { facaInfoBody } from '@linewatch/contracts/faca';
import { unbindForm } from '@linewatch/contracts/gateways';
import { act, renderHook } from '@testing-library/react';
import type { DefaultValues } from 'react-hook-form';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toastFailure } from './toast.ts';
import { checkWithContract, lazySchemaResolver, useContractForm } from './use-contract-form.ts';

vi.mock('./toast.ts', () => ({ toastFailure: vi.fn() }));

const emptyApplication = { name: '', psnCode: '', mobile: '', code: '' };

const renderForm = <Values extends Record<string, string>>(
  defaultValues: DefaultValues<Values>,
  loadSchema: Parameters<typeof useContractForm<Values, unknown>>[0]['loadSchema'],
  toBody?: (values: Values) => unknown,
) => {
  const onValid = vi.fn();
  const { result } = renderHook(() =>
    useContractForm<Values, unknown>({ defaultValues, loadSchema, toBody, onValid }),
  );
  const submit = () => act(async () => result.current.submit());
  return { onValid, submit, form: () => result.current.form };
};

beforeEach(() => vi.mocked(toastFailure).mockClear());

describe('useContractForm', () => {
  it('toasts the contract’s first message on a failed submit, and sends nothing', async () => {
    const { onValid, submit } = renderForm(emptyApplication, async () => applyForm);
    await submit();
    await vi.waitFor(() =>
      expect(toastFailure).toHaveBeenCalledWith(applicationMessages.nameRequired),
    );
    expect(toastFailure).toHaveBeenCalledTimes(1);
    expect(onValid).not.toHaveBeenCalled();
  });

  it('submits the body the schema parsed from the values', async () => {
    const { onValid, submit } = renderForm(
      { name: ' 张三 ', psnCode: 'E1001', mobile: '13800000000', code: '123456' },
      async () => applyForm,
    );
    await submit();
    await vi.waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(onValid.mock.calls[0]?.[0]).toEqual({
      name: '张三',
      psnCode: 'E1001',
      mobile: '13800000000',
      code: '123456',
    });
    expect(toastFailure).not.toHaveBeenCalled();
  });

  it('checks the request `toBody` makes of the values', async () => {
    const toBody = (values: { reason: string }) => ({ id: 7, ...values });
    const refused = renderForm({ reason: '' }, async () => rejectBody, toBody);
    await refused.submit();
    await vi.waitFor(() => expect(toastFailure).toHaveBeenCalledWith(adminMessages.reasonRequired));
    expect(refused.onValid).not.toHaveBeenCalled();
    const sent = renderForm({ reason: '重复申请' }, async () => rejectBody, toBody);
    await sent.submit();
    await vi.waitFor(() => expect(sent.onValid).toHaveBeenCalledTimes(1));
    expect(sent.onValid.mock.calls[0]?.[0]).toEqual({ id: 7, reason: '重复申请' });
  });
});

describe('checkWithContract', () => {
  it('toasts the first message of values no form holds, or gives the parsed value', async () => {
    expect(await checkWithContract(async () => mobileSchema, '123')).toBeNull();
    expect(toastFailure).toHaveBeenCalledWith(applicationMessages.mobileInvalid);
    expect(await checkWithContract(async () => mobileSchema, ' 13800000000 ')).toBe('13800000000');
  });
});

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
