#!/bin/sh
# Starts qbittorrent-nox with Haul's settings on first start (TCP only, no queueing, the Web API open to the compose
# network without a login: only Haul's containers reach it). Later starts keep what the daemon saved.
set -eu
conf=/config/qBittorrent/config/qBittorrent.conf
if [ ! -f "$conf" ]; then
  mkdir -p "$(dirname "$conf")"
  cp /etc/haul/qBittorrent.conf "$conf"
fi
exec qbittorrent-nox --profile=/config --webui-port=8080
