-- A bound PLC's Modbus TCP connection is IP + port + unit id (issue 24). A bind from the phone
-- used to keep only the IP, so the agent read every phone-bound PLC at its default port (502) and
-- two PLCs on one IP (a second port, or serial PLCs behind a Modbus gateway at other unit ids)
-- could not both be bound. The three together name one PLC of a gateway; gateways/service.ts and
-- the agent refuse a second machine at the same three.
--
-- Bindings made before this were read at the agent's default port with the model's unit id: 502
-- and 1 (every built-in model's) unless the site changed the agent's `modbusPort`, which the
-- server never knew. A site that did corrects them by binding again from the phone.
ALTER TABLE devices
  ADD COLUMN plc_port integer CHECK (plc_port BETWEEN 1 AND 65535),
  ADD COLUMN plc_unit_id smallint CHECK (plc_unit_id BETWEEN 0 AND 255);

UPDATE devices SET plc_port = 502, plc_unit_id = 1 WHERE plc_ip IS NOT NULL;
