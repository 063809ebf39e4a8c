-- What an alarm code means, shown beside an active alarm on the real-time report. A code with no
-- row is shown alone. The demo gateways raise these five.
CREATE TABLE alarm_definitions (
  code text PRIMARY KEY,
  description text NOT NULL
);

INSERT INTO alarm_definitions (code, description) VALUES
  ('E101', '送料超时'),
  ('E205', '气压不足'),
  ('E307', '伺服报警'),
  ('E412', '安全门打开'),
  ('E518', '温度过高')
ON CONFLICT (code) DO NOTHING;
