-- Subscriptions, alerts, delivery and troubleshooting cases (issue 9).

-- A follow carries its settings (docs/product.md section 3, Subscription); id is the spec's userFollowSnId.
ALTER TABLE user_follows
  ADD COLUMN id serial UNIQUE,
  ADD COLUMN real_time_reminder boolean NOT NULL DEFAULT false,
  ADD COLUMN three_parameters boolean NOT NULL DEFAULT false,
  ADD COLUMN alarm boolean NOT NULL DEFAULT false,
  ADD COLUMN daily boolean NOT NULL DEFAULT false,
  ADD COLUMN week boolean NOT NULL DEFAULT false,
  ADD COLUMN time_length integer NOT NULL DEFAULT 0;
CREATE INDEX user_follows_sn_idx ON user_follows (sn_code);

-- Which external channels a user wants (/set). A channel also needs the identity it sends to:
-- WeChat the user's open_id, DingTalk the dingding_user_id, a webhook its URL.
CREATE TABLE notification_settings (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  wechat boolean NOT NULL DEFAULT true,
  dingtalk boolean NOT NULL DEFAULT true,
  webhook_url text
);

-- Every message to every external channel, written in the transaction of the in-app notice
-- (itself in the transaction of its cause), then delivered by the outbox worker. One row per
-- (notice, channel): a replayed cause adds nothing. A worker claims due rows with
-- FOR UPDATE SKIP LOCKED and a lease (locked_until), so two instances never send one row at once.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  notification_id bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  channel text NOT NULL,
  target text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (notification_id, channel)
);
CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE status = 'pending';

-- An open condition episode of an alert rule evaluated over time (three parameters below target):
-- the row exists while the condition holds; its start names the episode in the dedupe key.
CREATE TABLE alert_episodes (
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  rule text NOT NULL,
  started_at timestamptz NOT NULL,
  PRIMARY KEY (sn_code, rule)
);

-- Troubleshooting guides for /faultAlarm (docs/product.md section 3, Failure case). shootings:
-- [{ label, picUrl: [url], videoUrl, steps: [{ label, picUrl }] }].
CREATE TABLE failure_cases (
  id serial PRIMARY KEY,
  warning_code text NOT NULL,
  sn_code text NOT NULL DEFAULT '',
  device_name text NOT NULL DEFAULT '',
  shootings jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX failure_cases_code_idx ON failure_cases (warning_code);

-- The demo gateways' alarm codes (migration 004) come with a guide each.
INSERT INTO failure_cases (warning_code, sn_code, device_name, shootings) VALUES
  ('E101', 'LW-S1-002', '贴片机', '[{"label": "送料器检查", "picUrl": ["/cases/e101-1-a.svg", "/cases/e101-1-b.svg"], "videoUrl": null, "steps": [{"label": "检查送料器是否卡料", "picUrl": "/cases/e101-1-a.svg"}, {"label": "清理送料通道异物", "picUrl": null}]}, {"label": "供料传感器检查", "picUrl": ["/cases/e101-2-a.svg", "/cases/e101-2-b.svg"], "videoUrl": null, "steps": [{"label": "用万用表测量传感器输出", "picUrl": null}, {"label": "更换损坏的传感器", "picUrl": null}]}]'),
  ('E205', 'LW-A1-003', '点胶机', '[{"label": "气源检查", "picUrl": ["/cases/e205-1-a.svg", "/cases/e205-1-b.svg"], "videoUrl": null, "steps": [{"label": "确认总气阀已打开", "picUrl": "/cases/e205-1-a.svg"}, {"label": "检查压力表读数不低于 0.5 MPa", "picUrl": null}]}, {"label": "气管检查", "picUrl": ["/cases/e205-2-a.svg", "/cases/e205-2-b.svg"], "videoUrl": null, "steps": [{"label": "沿气路检查漏气点", "picUrl": null}, {"label": "更换老化气管", "picUrl": null}]}]'),
  ('E307', 'LW-S1-004', '贴装头', '[{"label": "伺服驱动器检查", "picUrl": ["/cases/e307-1-a.svg", "/cases/e307-1-b.svg"], "videoUrl": null, "steps": [{"label": "读取驱动器报警代码", "picUrl": "/cases/e307-1-a.svg"}, {"label": "断电 30 秒后重新上电", "picUrl": null}]}, {"label": "电机线缆检查", "picUrl": ["/cases/e307-2-a.svg", "/cases/e307-2-b.svg"], "videoUrl": null, "steps": [{"label": "检查编码器线缆是否松动", "picUrl": null}]}]'),
  ('E412', 'LW-A2-001', '组装工位', '[{"label": "安全门检查", "picUrl": ["/cases/e412-1-a.svg", "/cases/e412-1-b.svg"], "videoUrl": null, "steps": [{"label": "确认安全门已关闭到位", "picUrl": "/cases/e412-1-a.svg"}, {"label": "检查门锁开关接线", "picUrl": null}]}]'),
  ('E518', 'LW-S1-005', '回流焊', '[{"label": "温区检查", "picUrl": ["/cases/e518-1-a.svg", "/cases/e518-1-b.svg"], "videoUrl": null, "steps": [{"label": "核对各温区设定温度", "picUrl": "/cases/e518-1-a.svg"}, {"label": "检查加热器与热电偶", "picUrl": null}]}, {"label": "散热检查", "picUrl": ["/cases/e518-2-a.svg", "/cases/e518-2-b.svg"], "videoUrl": null, "steps": [{"label": "清理排风口", "picUrl": null}, {"label": "确认冷却风扇运转", "picUrl": null}]}]');
