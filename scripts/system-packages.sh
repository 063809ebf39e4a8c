#!/usr/bin/env sh
# What the tests need from the system, not from npm: Debian's chromium with a font that draws the
# Chinese copy and its Chinese locale (the browser journeys), python3-paho-mqtt (the Python
# example gateway the integration suite runs) and mbpoll (a Modbus client nobody here wrote).
# `npm test` and `.ci/run` run this first. Everything there: nothing to do. Something missing:
# installed with apt-get when we are root and apt is there; otherwise it stops at once and prints
# the one command to run.
set -eu

missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
fc-list 2>/dev/null | grep -qi 'wqy' || missing="$missing fonts-wqy-microhei"
[ -e /usr/lib/chromium/locales/zh-CN.pak ] || missing="$missing chromium-l10n"
/usr/bin/python3 -c 'import paho.mqtt.client' >/dev/null 2>&1 || missing="$missing python3-paho-mqtt"
command -v mbpoll >/dev/null 2>&1 || missing="$missing mbpoll"
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing what the tests need from the system:$missing"
  apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  exit 0
fi

echo "The tests need system packages that are missing:$missing" >&2
echo "Install them (Debian/Ubuntu), then run npm test again:" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 1
