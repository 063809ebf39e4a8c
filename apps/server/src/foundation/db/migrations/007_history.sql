-- Device history (issue 8). The alarm TOP5 shows each code's manual description (artificialDes):
-- what the maintenance manual says to do. A code with no row shows none.
CREATE TABLE alarm_manuals (
  code text PRIMARY KEY,
  artificial_des text NOT NULL
);

INSERT INTO alarm_manuals (code, artificial_des) VALUES
  ('E101', '检查送料机构与物料到位传感器'),
  ('E205', '检查气源压力与调压阀，确认不低于 0.5 MPa'),
  ('E307', '查看伺服驱动器报警码，复位后低速试运行'),
  ('E412', '关闭安全门并确认门锁开关信号'),
  ('E518', '检查冷却风扇与温控器，降温后再启动')
ON CONFLICT (code) DO NOTHING;

