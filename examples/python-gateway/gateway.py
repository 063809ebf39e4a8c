#!/usr/bin/env python3
"""A Linewatch gateway written from docs/protocol.md alone, with Debian's paho-mqtt 1.6.

It reads a simulated PLC (one reading every 10 s of PLC time per machine), numbers its messages
on one counter kept on disk with everything not yet acknowledged, resends from where the server
says, numbers again what it holds when the server shows that its counter was lost, and answers
commands. One run sends --readings readings of each machine (and --events operation events, and
with --malformed one message with a bad reading among good ones), waits until the server has
acknowledged everything, prints {"done": ...} and keeps answering commands until SIGTERM.

    apt-get install -y python3-paho-mqtt
    /usr/bin/python3 gateway.py --url mqtt://127.0.0.1:1883 --serial GW0000000001 \\
        --secret '<secret>' --state-dir /var/lib/py-gateway --machine PRESS-01 --readings 5

Every line on stdout is JSON: {"sent": message} for each message as first published,
{"rejected": ...} for each rejection heard, {"done": {...}} once everything is acknowledged.
"""

import argparse
import json
import os
import signal
import sys
import threading
import time
from urllib.parse import urlparse

import paho.mqtt.client as mqtt

STEP_MS = 10_000
ACK_TIMEOUT_S = 10


def emit(line):
    print(json.dumps(line, ensure_ascii=False), flush=True)


def log(text):
    print(text, file=sys.stderr, flush=True)


def plc_reading(sn, start_ms, step):
    """What the simulated PLC shows at `step`: totals since it started, a fault now and then."""
    status = 3 if step % 7 == 6 else 1 if step % 5 == 4 else 2
    reading = {
        "sn": sn,
        "ts": start_ms + step * STEP_MS,
        "status": status,
        "counters": {"produced": 8 * step, "ok": 8 * step - step // 3,
                     "ng": step // 3, "firstPassOk": 8 * step - step // 3},
        "alarms": [{"code": "E12", "active": status == 3}],
    }
    if status == 1:
        reading["idleReason"] = "upstream"
    return reading


class Gateway:
    def __init__(self, args):
        self.serial = args.serial
        self.secret = args.secret
        self.url = urlparse(args.url)
        self.machines = list(args.machine)
        self.state_file = os.path.join(args.state_dir, "state.json")
        self.cond = threading.Condition()
        # The counter and every unacknowledged message, on disk (docs/protocol.md 4.1).
        self.counter = 0
        self.unacked = []
        self.saved = self._load()
        self.answered = False
        self.subscribed = False
        # --eager plays a careless gateway: with no saved counter it reads no ack before its first
        # message has gone out (so that message is seq 1 whatever the server answered meanwhile).
        self.deaf = args.eager and not self.saved
        self.deaf_to = []
        self.progress_at = time.monotonic()
        self.last_publish = None
        self.client = None

    def topic(self, kind):
        return f"lw/v1/gw/{self.serial}/{kind}"

    def _load(self):
        try:
            with open(self.state_file, encoding="utf-8") as f:
                state = json.load(f)
        except FileNotFoundError:
            return False
        self.counter = state["counter"]
        self.unacked = state["unacked"]
        return True

    def _save(self):
        tmp = self.state_file + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"counter": self.counter, "unacked": self.unacked}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state_file)

    def _state(self, state):
        message = {"state": state, "ts": int(time.time() * 1000)}
        if state == "online":
            message.update(machines=self.machines, agentVersion="py-example 1.0")
        return json.dumps(message)

    # --- connection (docs/protocol.md 1) -------------------------------------------------------

    def connect(self):
        client = mqtt.Client(client_id=f"gw-{self.serial}", clean_session=True,
                             protocol=mqtt.MQTTv311)
        client.username_pw_set(self.serial, self.secret)
        client.will_set(self.topic("state"), self._state("offline"), qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        self.client = client
        client.connect(self.url.hostname, self.url.port or 1883, keepalive=30)
        client.loop_start()
        # Nothing is sent before the ack topic is subscribed: an answer to it would be lost.
        with self.cond:
            if not self.cond.wait_for(lambda: self.subscribed, 10):
                raise SystemExit("no SUBACK from the broker in 10 s")

    def _on_subscribe(self, _client, _userdata, _mid, _granted_qos):
        with self.cond:
            self.subscribed = True
            self.cond.notify_all()

    def _on_connect(self, client, _userdata, _flags, rc):
        if rc != 0:
            log(f"connection refused: {mqtt.connack_string(rc)}")
            return
        # Subscribe, say online (the server answers with where it stands), then resend.
        client.subscribe([(self.topic("ack"), 1), (self.topic("cmd"), 1)])
        client.publish(self.topic("state"), self._state("online"), qos=1, retain=True)
        with self.cond:
            self._resend(0)

    def _on_message(self, _client, _userdata, msg):
        try:
            payload = json.loads(msg.payload)
        except ValueError:
            log(f"ignored a payload that is not JSON on {msg.topic}")
            return
        if msg.topic == self.topic("ack"):
            with self.cond:
                if self.deaf:
                    self.deaf_to.append(payload)
                    return
            self._on_ack(payload)
        elif msg.topic == self.topic("cmd"):
            self._on_command(payload)

    # --- sending, acks and rejections (docs/protocol.md 4) -------------------------------------

    def send(self, kind, body):
        with self.cond:
            self.counter += 1
            message = {"seq": self.counter, **body}
            self.unacked.append({"kind": kind, "message": message})
            self._save()
            emit({"sent": message})
            self._publish(kind, message)
            if self.deaf:
                self.deaf = False
                for ack in self.deaf_to:
                    self._on_ack(ack)
                self.deaf_to = []

    def _publish(self, kind, message):
        self.last_publish = self.client.publish(
            self.topic(kind), json.dumps(message, ensure_ascii=False), qos=1)

    def _resend(self, from_seq):
        for entry in self.unacked:
            if entry["message"]["seq"] >= from_seq:
                self._publish(entry["kind"], entry["message"])

    def _on_ack(self, ack):
        with self.cond:
            self.answered = True
            if ack.get("rejected"):
                emit({"rejected": ack["rejected"]})
            taken = max(ack["seq"], ack.get("next", 1) - 1)
            if taken > self.counter:
                # The server has seqs we never numbered: our counter was lost (4.6). Nothing we
                # hold is covered; it is numbered again from taken + 1 and resent.
                log(f"server has seq {taken}, above our {self.counter}: numbering "
                    f"{len(self.unacked)} messages again from {taken + 1}")
                for i, entry in enumerate(self.unacked):
                    entry["message"]["seq"] = taken + 1 + i
                self.counter = taken + len(self.unacked)
                self._save()
                self._resend(0)
            else:
                before = len(self.unacked)
                self.unacked = [e for e in self.unacked if e["message"]["seq"] > ack["seq"]]
                if len(self.unacked) != before:
                    self._save()
                    self.progress_at = time.monotonic()
                if "received" in ack:
                    # The server holds these and is still writing them (4.2): wait, resend none.
                    self.progress_at = time.monotonic()
                stale = (ack.get("rejected") or {}).get("reason") == "stale"
                if "next" in ack and not stale:
                    # A stale rejection with our counter standing: nothing to do (4.6).
                    self._resend(ack["next"])
            self.cond.notify_all()

    def wait_for_server(self, timeout):
        """With no saved counter, learn the server's position before numbering (4.6)."""
        with self.cond:
            self.cond.wait_for(lambda: self.answered, timeout)

    def wait_until_acked(self, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.unacked:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{len(self.unacked)} messages never acknowledged")
                if self.last_publish is not None and not self.last_publish.is_published():
                    # The broker has not taken what we sent (no PUBACK yet): resending cannot
                    # help, and the ack timer starts once it has (4.2).
                    self.progress_at = time.monotonic()
                elif time.monotonic() - self.progress_at > ACK_TIMEOUT_S:
                    self.progress_at = time.monotonic()
                    self._resend(0)
                self.cond.wait(0.5)

    # --- commands (docs/protocol.md 5) ---------------------------------------------------------

    def _on_command(self, command):
        correlation_id = command.get("correlationId")
        if not isinstance(correlation_id, str):
            return
        kind = command.get("type")
        code, content = 200, "网关在线"
        if kind == "bind":
            if command["snCode"] not in self.machines:
                self.machines.append(command["snCode"])
            content = "绑定成功"
        elif kind == "unbind":
            self.machines = [sn for sn in self.machines if sn != command["snCode"]]
            content = "解绑成功"
        elif kind != "ping":
            code, content = 501, "网关暂不支持此命令"
        reply = {"correlationId": correlation_id, "code": code, "content": content}
        self.client.publish(self.topic("cmd/reply"), json.dumps(reply, ensure_ascii=False), qos=1)
        if kind in ("bind", "unbind"):
            self.client.publish(self.topic("state"), self._state("online"), qos=1, retain=True)

    def stop(self):
        self.client.publish(self.topic("state"), self._state("offline"), qos=1,
                            retain=True).wait_for_publish(3)
        self.client.disconnect()
        self.client.loop_stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--serial", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--machine", action="append", required=True)
    parser.add_argument("--start-ms", type=int, default=None,
                        help="PLC time of step 0 (default: now)")
    parser.add_argument("--first-step", type=int, default=0)
    parser.add_argument("--readings", type=int, default=5)
    parser.add_argument("--events", type=int, default=0)
    parser.add_argument("--malformed", action="store_true",
                        help="also send one message with a bad reading among good ones")
    parser.add_argument("--eager", action="store_true",
                        help="with no saved counter, start at 1 at once instead of waiting "
                             "for the server's position (as a careless gateway would)")
    args = parser.parse_args()
    os.makedirs(args.state_dir, exist_ok=True)
    start_ms = args.start_ms if args.start_ms is not None else int(time.time() * 1000)

    gateway = Gateway(args)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    gateway.connect()
    if not gateway.saved and not args.eager:
        gateway.wait_for_server(5)

    step = args.first_step
    for _ in range(args.readings):
        gateway.send("telemetry", {"readings": [plc_reading(sn, start_ms, step)
                                                for sn in gateway.machines]})
        step += 1
    for i in range(args.events):
        gateway.send("events", {"events": [{
            "type": "operation", "sn": gateway.machines[0],
            "ts": start_ms + (step - 1) * STEP_MS + 1 + i, "comment": "速度设定",
            "setValue": str(100 + i), "user": "py-example"}]})
    if args.malformed:
        bad = dict(plc_reading(gateway.machines[0], start_ms, step), status=7)
        gateway.send("telemetry", {"readings": [plc_reading(gateway.machines[0], start_ms, step),
                                                bad]})
        step += 1
        gateway.send("telemetry", {"readings": [plc_reading(gateway.machines[0], start_ms, step)]})
        step += 1
    gateway.wait_until_acked(60)
    emit({"done": {"counter": gateway.counter, "nextStep": step}})
    stopping.wait()
    gateway.stop()


if __name__ == "__main__":
    main()
