import { loadPlcProfilesFile } from '@linewatch/contracts/plc-profiles-file';
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseTemplateMappings } from './wechat-templates.ts';

const DEFAULT_SECRET = 'linewatch-demo-secret';

const flag = z.enum(['0', '1', 'true', 'false', '']).transform((v) => v === '1' || v === 'true');

const isAddressOrCidr = (entry: string) => {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** Schema inside DATABASE_URL to use (each test run gets its own). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .default('public'),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must start with mqtt:// or mqtts://')
    .optional(),
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  /** Where the embedded broker listens: all interfaces by default, 127.0.0.1 to keep it local. */
  MQTT_HOST: z
    .string()
    .refine((h) => isIP(h) !== 0, 'must be an IP address')
    .default('0.0.0.0'),
  /** How long a bind/unbind waits for the gateway's reply before answering 504 (tests shorten it). */
  GATEWAY_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** A site's PLC models (JSON, the shape of contracts plc-profiles.json), beside the built-in ones. */
  PLC_PROFILES_FILE: z.string().optional(),
  DEMO: flag.default(false),
  /** Secret for the demo gateways' credentials and other server-side secrets. */
  SECRET: z.string().min(16, 'must be at least 16 characters').default(DEFAULT_SECRET),
  PUBLIC_URL: z.url().optional(),
  TIMEZONE: z
    .string()
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'is not a known IANA time zone')
    .default('Asia/Shanghai'),
  /**
   * Behind a reverse proxy, which X-Forwarded-For entries to believe: `0` (default) none; a
   * number n, the n proxies nearest the server (the address is the n-th entry from the right);
   * or a comma list of the proxies' addresses / CIDRs. Never "every hop": a client could then
   * put any address first and dodge the per-address sign-in throttle.
   */
  TRUST_PROXY: z
    .string()
    .transform((v, ctx): false | number | string => {
      const value = v.trim();
      if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
      const entries = value.split(',').map((e) => e.trim());
      if (entries.every(isAddressOrCidr)) return entries.join(',');
      ctx.addIssue({
        code: 'custom',
        message:
          'must be 0, a number of proxy hops, or a comma list of proxy addresses/CIDRs ("true" would trust every hop)',
      });
      return z.NEVER;
    })
    .default(false),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  /**
   * WeChat official account (snsapi_base OAuth). Without WECHAT_APPID and WECHAT_SECRET, WeChat
   * users sign in with the password form only. The URLs are WeChat's; tests point them at a fake.
   */
  WECHAT_APPID: z.string().optional(),
  WECHAT_SECRET: z.string().optional(),
  WECHAT_API_URL: z.url().default('https://api.weixin.qq.com'),
  WECHAT_OAUTH_URL: z.url().default('https://open.weixin.qq.com/connect/oauth2/authorize'),
  /** DingTalk internal app: sign-in by JSAPI auth code. Unset: DingTalk users use the form. */
  DINGTALK_APPKEY: z.string().optional(),
  DINGTALK_APPSECRET: z.string().optional(),
  DINGTALK_AGENT_ID: z.string().optional(),
  DINGTALK_CORP_ID: z.string().optional(),
  DINGTALK_API_URL: z.url().default('https://oapi.dingtalk.com'),
  /** Where the web app's built files are; the server serves them when present. */
  WEB_DIST: z.string().optional(),
  // Alert delivery (notifications/channels/) uses the same WeChat and DingTalk apps as sign-in: a
  // channel is on when its credentials are set.
  /**
   * Replaced by WECHAT_TEMPLATES: a template_id alone filled first / keyword1..2 / remark, which
   * WeChat has cut or hidden since 2023-05-04. Refused, so an upgrade does not go on sending
   * messages nobody can read.
   */
  WECHAT_TEMPLATE_ID: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined,
      'is replaced by WECHAT_TEMPLATES (the template_id and what each of its fields shows, README)',
    ),
  /**
   * The alert and report template messages: `{"default": {"id": "<template_id>", "data":
   * {"thing1": "machine", "character_string2": "sn", "thing3": "content", "time4": "time"}}}`,
   * and the same per kind of message to use another template for it (wechat-templates.ts says
   * what each field type takes).
   */
  WECHAT_TEMPLATES: z
    .string()
    .transform((v, ctx) => {
      const parsed = parseTemplateMappings(v);
      if (typeof parsed !== 'string') return parsed;
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    })
    .optional(),
  /** HMAC-SHA256 key of webhook deliveries; unset: no webhook channel. */
  WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * Webhook targets allowed although not public (comma-separated host names, addresses, CIDR
   * ranges), e.g. a receiver inside the factory network; everything else private is refused.
   */
  WEBHOOK_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    ),
  /** First retry of a failed delivery after this long, doubling per attempt (up to an hour). */
  OUTBOX_RETRY_MS: z.coerce.number().int().positive().default(5_000),
  /** Report jobs' schedules (croner patterns, in TIMEZONE). */
  DAILY_REPORT_CRON: z.string().default('0 8 * * *'),
  WEEKLY_REPORT_CRON: z.string().default('0 8 * * 1'),
  /**
   * Days of minute rollups kept (whole UTC days; hours and days are kept for good). The
   * statistics read the minutes of their partial end days, up to 31 days back.
   */
  MINUTE_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(32, 'must be at least 32 (the statistics read minutes up to 31 days back)')
    .default(90),
  /** Bearer token for GET /metrics; unset: /metrics answers loopback requests only. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

/** Reads and validates the environment; throws one line naming the bad variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = schema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(
      `配置错误 / invalid configuration: ${name}=${JSON.stringify(env[name] ?? '')} ${issue.message}`,
    );
  }
  const config = result.data;
  if (config.PLC_PROFILES_FILE) {
    try {
      loadPlcProfilesFile(config.PLC_PROFILES_FILE);
    } catch (error) {
      throw new ConfigError(
        `配置错误 / invalid configuration: PLC_PROFILES_FILE ${(error as Error).message}`,
      );
    }
  }
  // WeChat sends the browser back to this address and DingTalk checks signatures made for it:
  // taken from the request's Host, a forged Host would choose both.
  const signsInWithPlatform =
    (config.WECHAT_APPID && config.WECHAT_SECRET) ||
    (config.DINGTALK_APPKEY && config.DINGTALK_APPSECRET);
  if (signsInWithPlatform && !config.PUBLIC_URL) {
    throw new ConfigError(
      '配置错误 / invalid configuration: PUBLIC_URL is required with WeChat or DingTalk sign-in (WECHAT_APPID / DINGTALK_APPKEY): the address phones use, which WeChat returns to and DingTalk signs pages of',
    );
  }
  if (!config.DEMO && config.SECRET === DEFAULT_SECRET) {
    throw new ConfigError(
      '配置错误 / invalid configuration: SECRET is the default demo secret; set SECRET (16+ characters) or DEMO=1',
    );
  }
  return config;
};
