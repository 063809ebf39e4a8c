import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const env = (vars: Record<string, string>) => ({ DEMO: '1', ...vars });

describe('TRUST_PROXY', () => {
  it.each([
    ['', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.0/8, 192.168.1.2,::1', '10.0.0.0/8,192.168.1.2,::1'],
  ])('reads %j as %j', (value, expected) => {
    expect(loadConfig(env({ TRUST_PROXY: value })).TRUST_PROXY).toEqual(expected);
  });

  // "true" trusted every hop: a client could choose its own address.
  it.each(['true', 'yes', '10.0.0.0/33', 'proxy.example'])('refuses %j', (value) => {
    expect(() => loadConfig(env({ TRUST_PROXY: value }))).toThrow(ConfigError);
    expect(() => loadConfig(env({ TRUST_PROXY: value }))).toThrow(/TRUST_PROXY/);
  });
});

describe('MQTT_HOST', () => {
  it('defaults to all interfaces and takes an address', () => {
    expect(loadConfig(env({})).MQTT_HOST).toBe('0.0.0.0');
    expect(loadConfig(env({ MQTT_HOST: '127.0.0.1' })).MQTT_HOST).toBe('127.0.0.1');
    expect(() => loadConfig(env({ MQTT_HOST: 'not an address' }))).toThrow(/MQTT_HOST/);
  });
});

describe('METRICS_TOKEN', () => {
  it('is optional, and at least 16 characters when set', () => {
    expect(loadConfig(env({})).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig(env({ METRICS_TOKEN: 'a'.repeat(16) })).METRICS_TOKEN).toBe('a'.repeat(16));
    expect(() => loadConfig(env({ METRICS_TOKEN: 'short' }))).toThrow(/METRICS_TOKEN/);
  });
});

describe('PUBLIC_URL', () => {
  // WeChat returns to it and DingTalk signatures are made for it: never the request's Host.
  it('is required once WeChat or DingTalk sign-in is configured', () => {
    const wechat = { WECHAT_APPID: 'wx', WECHAT_SECRET: 's' };
    const dingtalk = { DINGTALK_APPKEY: 'dk', DINGTALK_APPSECRET: 's' };
    for (const platform of [wechat, dingtalk]) {
      expect(() => loadConfig(env(platform))).toThrow(/PUBLIC_URL/);
      expect(loadConfig(env({ ...platform, PUBLIC_URL: 'https://lw.example' })).PUBLIC_URL).toBe(
        'https://lw.example',
      );
    }
    expect(loadConfig(env({})).PUBLIC_URL).toBeUndefined();
  });
});

describe('WECHAT_TEMPLATES', () => {
  it('is read once at start; WECHAT_TEMPLATE_ID, which filled the hidden first / remark, is refused', () => {
    const templates = {
      default: { id: 'tpl', data: { thing1: 'machine', time2: 'time' } },
    };
    expect(
      loadConfig(env({ WECHAT_TEMPLATES: JSON.stringify(templates) })).WECHAT_TEMPLATES,
    ).toEqual(templates);
    expect(() => loadConfig(env({ WECHAT_TEMPLATES: '{"default":{}}' }))).toThrow(
      /WECHAT_TEMPLATES/,
    );
    expect(() => loadConfig(env({ WECHAT_TEMPLATE_ID: 'tpl' }))).toThrow(
      /WECHAT_TEMPLATE_ID.*replaced by WECHAT_TEMPLATES/,
    );
  });
});

describe('MINUTE_RETENTION_DAYS', () => {
  it('keeps 90 days by default, and never fewer than the 32 the statistics read', () => {
    expect(loadConfig(env({})).MINUTE_RETENTION_DAYS).toBe(90);
    expect(loadConfig(env({ MINUTE_RETENTION_DAYS: '32' })).MINUTE_RETENTION_DAYS).toBe(32);
    for (const value of ['31', '0', '7.5', 'ninety'])
      expect(() => loadConfig(env({ MINUTE_RETENTION_DAYS: value }))).toThrow(
        /^配置错误 \/ invalid configuration: MINUTE_RETENTION_DAYS="[^"]*" /,
      );
    expect(() => loadConfig(env({ MINUTE_RETENTION_DAYS: '31' }))).toThrow(/at least 32/);
  });
});
